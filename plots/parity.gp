# plots/parity.gp: predicted against published, one point per row of a
# validation (`trainsim validate --format csv`), one colour per family; the
# diagonal is perfect agreement and the dashed lines are +-10%. Rows that
# set a model constant ("param source") are left out. Written beside the
# picture by `trainsim plot --kind parity -o NAME.png`, as NAME.gp, its data
# as NAME.dat; redraw or restyle by hand:
#   gnuplot -c NAME.gp NAME.dat NAME.png
# DATA: blocks separated by two blank lines, each starting with its family;
# columns: published, predicted, error %, row id. Values are in each row's
# own unit (TFLOP/s, s, GB/s...): a log-log plot puts them on one diagonal.
if (ARGC < 2) { print "usage: gnuplot -c ".ARG0." DATA.dat OUT.png|svg"; exit status 2 }

ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1
if (ext eq "svg") {
	set terminal svg size 900,800 dynamic enhanced font "sans,12"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 900,800 enhanced font "sans,11"
	} else {
		set terminal png size 900,800
	}
}
set output ARG2

stats ARG1 using 1:2 nooutput
nb = STATS_blocks
lo = (STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y) / 1.5
hi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y) * 1.5

set title "Predicted against published (each row in its own unit)" noenhanced
set xlabel "published"
set ylabel "predicted by trainsim"
set logscale xy 10
set xrange [lo:hi]
set yrange [lo:hi]
set size square
set grid
set key outside right top vertical noenhanced
set samples 2
plot x with lines lc rgb "black" dt 1 lw 1 title "agreement", \
     1.1*x with lines lc rgb "gray50" dt 2 title "+-10%", \
     0.9*x with lines lc rgb "gray50" dt 2 notitle, \
     for [i=0:nb-1] ARG1 index i using 1:2 with points pt (i < 8 ? 7 : i < 16 ? 5 : 9) ps 0.9 lc i+1 \
	title columnheader(1)
