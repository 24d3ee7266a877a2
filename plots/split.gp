# split.gp: stacked bars of the time split of one step per configuration
# (compute, exposed communication, bubble, stalls, idle: they sum to the
# step time). Written by `trainsim plot --kind split`; redraw by hand:
#   gnuplot -c split.gp DATA.dat OUT.png
# DATA: a header line (configuration, then one column per category), then
# one row per configuration.
if (ARGC < 2) { print "usage: gnuplot -c split.gp DATA.dat OUT.png|svg"; exit status 2 }

ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1
if (ext eq "svg") {
	set terminal svg size 1000,650 dynamic enhanced font "sans,12"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1000,650 enhanced font "sans,11"
	} else {
		set terminal png size 1000,650
	}
}
set output ARG2

stats ARG1 using 2 nooutput
ncol = STATS_columns

set title "Where the time of one step goes"
set ylabel "time per step (s)"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set key outside right top vertical noenhanced
set xtics rotate by -30 noenhanced
set grid ytics
set yrange [0:*]
plot for [i=2:ncol] ARG1 using i:xtic(1) title columnheader(i)
