# speed.gp: utilization (MFU and nvidia-smi-style GPU utilization) and step
# time against NIC speed, one line per parallel layout (one data block each).
# Written by `trainsim plot --kind speed`; redraw or restyle by hand:
#   gnuplot -c speed.gp DATA.dat OUT.png ["x label"] [log|linear]
# DATA: blocks separated by two blank lines, each starting with its title;
# columns: x, step_time_s, mfu, gpu_util, x tick text, fits (1, or 0 for a
# layout that does not fit in GPU memory: ringed in red).
if (ARGC < 2) { print "usage: gnuplot -c speed.gp DATA.dat OUT.png|svg [\"x label\"] [log|linear]"; exit status 2 }
xlabel = ARGC >= 3 ? ARG3 : "NIC speed (Gb/s)"
xscale = ARGC >= 4 ? ARG4 : "log"

ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1
if (ext eq "svg") {
	set terminal svg size 900,900 dynamic enhanced font "sans,12"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 900,900 enhanced font "sans,11"
	} else {
		set terminal png size 900,900
	}
}
set output ARG2

stats ARG1 using 1 nooutput
nb = STATS_blocks
# the "does not fit" legend entry only when some point does not fit
stats ARG1 using 6 nooutput name "FIT"
nofit = FIT_min == 0

set grid
# The key goes under the top panel (series names can be long); both panels
# keep the same side margins so that their x axes line up; offsets keep the
# first and last tick labels off the border.
set lmargin 10
set rmargin 4
set offsets graph 0.04, graph 0.04, 0, 0
if (xscale eq "log") { set logscale x 10 }
set autoscale xfix
set multiplot layout 2,1 title "Utilization and step time against ".xlabel noenhanced

set key below vertical maxrows 6 noenhanced
set ylabel "utilization (%)"
set yrange [0:105]
set format x ""
plot for [i=0:nb-1] ARG1 index i using 1:($3*100):xtic(5) with linespoints lc i+1 dt 1 pt 7 \
	title "MFU ".columnheader(1), \
     for [i=0:nb-1] ARG1 index i using 1:($4*100) with linespoints lc i+1 dt 2 pt 6 \
	title "nvidia-smi util ".columnheader(1), \
     for [i=0:nb-1] ARG1 index i using 1:($6 == 0 ? $3*100 : 1/0) with points lc rgb "red" \
	pt 6 ps 2.2 lw 2 title (i == 0 && nofit ? "does not fit in GPU memory" : "")

unset key
set ylabel "step time (s)"
set yrange [0:*]
set xlabel xlabel noenhanced
set format x "% g"
plot for [i=0:nb-1] ARG1 index i using 1:2:xtic(5) with linespoints lc i+1 dt 1 pt 7, \
     for [i=0:nb-1] ARG1 index i using 1:($6 == 0 ? $2 : 1/0) with points lc rgb "red" \
	pt 6 ps 2.2 lw 2
unset multiplot
