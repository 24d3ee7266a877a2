# plots/speed.gp: utilization (MFU and nvidia-smi-style GPU utilization)
# and step time against NIC speed, one line per parallel layout (one data
# block each).
# Written beside the picture by `trainsim plot --kind speed -o NAME.png`, as
# NAME.gp, its data as NAME.dat; redraw or restyle by hand:
#   gnuplot -c NAME.gp NAME.dat NAME.png ["x label"] [log|linear]
# DATA: blocks separated by two blank lines, each starting with its title;
# columns: x, step_time_s, mfu, gpu_util, x tick text, fits (1, or 0 for a
# layout that does not fit in GPU memory: ringed in red).
if (ARGC < 2) { print "usage: gnuplot -c ".ARG0." DATA.dat OUT.png|svg [\"x label\"] [log|linear]"; exit status 2 }
if (!exists("subtitle")) { subtitle = "" }   # the run's name: trainsim writes it above
xlabel = ARGC >= 3 ? ARG3 : "NIC speed (Gb/s)"
xscale = ARGC >= 4 ? ARG4 : "log"

stats ARG1 using 1 nooutput
nb = STATS_blocks
# the "does not fit" legend entry only when some point does not fit
stats ARG1 using 6 nooutput name "FIT"
nofit = FIT_min == 0
# The longest block title (column 1 of the title lines; a number in that
# column longer than every title only makes the key's estimate below taller).
stats ARG1 using (strlen(strcol(1))) nooutput name "TITLE"

# The key: with several series, one entry per series (its colour) and two
# for the line styles (solid MFU, dashed nvidia-smi), rather than two per
# series: half the entries, and each colour named once. A single series
# keeps "MFU <title>" and "nvidia-smi util <title>".
nentries = (nb > 1 ? nb + 2 : 2) + nofit
tlen = TITLE_max + (nb > 1 ? 0 : 16)
tlen = nofit && tlen < 26 ? 26 : tlen    # "does not fit in GPU memory"
ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1
# The key is stacked horizontally: gnuplot then puts as many columns as fit
# the width and adds rows, so that no entry is dropped (vertical stacking
# with a fixed maxrows drew only rows x the columns that fit). Its rows are
# estimated as gnuplot lays them out: a column is (title + 6) characters
# plus a tic wide (taken as one more character), across the plot's width (900 pixels less the 14
# characters of margins). Character width and row height in pixels: those
# gnuplot 5.4 reports (GPVAL_TERM_HCHAR, VCHAR) for the fonts set below.
charw = ext eq "svg" ? 8.4 : 9.0
rowh = ext eq "svg" ? 18.0 : 17.1
ncols = floor((900 - 14 * charw) / ((tlen + 7) * charw))
ncols = ncols < 1 ? 1 : ncols
nrows = ceil(nentries / (1.0 * ncols))
# The canvas grows by the rows beyond six, so that the top panel keeps its
# height; the bottom panel keeps 450 pixels.
height = 900 + (nrows > 6 ? ceil((nrows - 6) * rowh) : 0)
if (ext eq "svg") {
	set terminal svg size 900,height dynamic enhanced font "sans,12"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 900,height enhanced font "sans,11"
	} else {
		set terminal png size 900,height
	}
}
set output ARG2

set grid
# The key goes under the top panel (series names can be long); both panels
# keep the same side margins so that their x axes line up; offsets keep the
# first and last tick labels off the border.
set lmargin 10
set rmargin 4
set offsets graph 0.04, graph 0.04, 0, 0
if (xscale eq "log") { set logscale x 10 }
set autoscale xfix
set multiplot title "Utilization and step time against ".xlabel.(subtitle ne "" ? "\n".subtitle : "") noenhanced
bottom = 450.0 / height
set origin 0, bottom
set size 1, 1 - bottom
set tmargin 3    # room for the page title

set key below horizontal noenhanced
set ylabel "utilization (%)"
set yrange [0:105]
set format x ""
plot for [i=0:nb-1] ARG1 index i using 1:($3*100):xtic(5) with linespoints lc i+1 dt 1 pt 7 \
	title (nb > 1 ? columnheader(1) : "MFU ".columnheader(1)), \
     for [i=0:nb-1] ARG1 index i using 1:($4*100) with linespoints lc i+1 dt 2 pt 6 \
	title (nb > 1 ? "" : "nvidia-smi util ".columnheader(1)), \
     keyentry with linespoints lc rgb "gray40" dt 1 pt 7 title (nb > 1 ? "MFU" : ""), \
     keyentry with linespoints lc rgb "gray40" dt 2 pt 6 title (nb > 1 ? "nvidia-smi util" : ""), \
     for [i=0:nb-1] ARG1 index i using 1:($6 == 0 ? $3*100 : 1/0) with points lc rgb "red" \
	pt 6 ps 2.2 lw 2 title (i == 0 && nofit ? "does not fit in GPU memory" : "")

unset key
set origin 0, 0
set size 1, bottom
set tmargin 1
set ylabel "step time (s)"
set yrange [0:*]
set xlabel xlabel noenhanced
set format x "% g"
plot for [i=0:nb-1] ARG1 index i using 1:2:xtic(5) with linespoints lc i+1 dt 1 pt 7, \
     for [i=0:nb-1] ARG1 index i using 1:($6 == 0 ? $2 : 1/0) with points lc rgb "red" \
	pt 6 ps 2.2 lw 2
unset multiplot
