# plots/split.gp: stacked bars of the time split of one step per configuration
# (compute, exposed communication, bubble, stalls, idle: they sum to the
# step time). Written beside the picture by `trainsim plot --kind split -o
# NAME.png`, as NAME.gp, its data as NAME.dat; redraw by hand:
#   gnuplot -c NAME.gp NAME.dat NAME.png
# DATA: a header line (configuration, then one column per category), then
# one row per configuration, in seconds (or, with `share = 1` above, as
# written by --percent, in percent of the row's step). The step's categories come in a fixed order
# (compute, tp_comm, pp_comm, pp_bubble, dp_comm, data_stall, checkpoint,
# optimizer, idle, then others), each in its place even where it is zero
# (its name is then empty: no key entry), so that column k+1 is drawn with
# linetype k, which `trainsim plot` gives the category's colour below this
# comment: the same colour in every split and timeline picture.
if (ARGC < 2) { print "usage: gnuplot -c ".ARG0." DATA.dat OUT.png|svg"; exit status 2 }
if (!exists("subtitle")) { subtitle = "" }   # the run's name: trainsim writes it above
if (!exists("share")) { share = 0 }          # 1: the rows are shares of the step (%)

stats ARG1 using 2 nooutput
ncol = STATS_columns
bars = STATS_records          # the header line is not a number: not counted
stats ARG1 using (strlen(strcol(1))) nooutput name "LABEL"
ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1

# Bar labels are read when neighbours do not overlap: labels rotated by an
# angle a, one slot apart, are parallel strips slot x sin(a) apart, which
# must exceed a line of text. Up to 20 bars the slots of a 1000-pixel
# canvas (750 pixels of plot between the y axis and the key) allow 30
# degrees, each label right-aligned so that it ends under its own bar (left
# aligned at -30 degrees, a long label ran under its neighbours'); beyond, labels stand upright (90 degrees) and the canvas widens
# to give each slot 1.4 lines, up to 1600 pixels (a screen). Past the bars
# whose slots keep 1.2 lines there (65 in a PNG) the labels run into each
# other, and a warning says so. Character width and line height in pixels:
# those gnuplot 5.4 reports (GPVAL_TERM_HCHAR, VCHAR) for the fonts below.
charw = ext eq "svg" ? 8.4 : 9.0
rowh = ext eq "svg" ? 18.0 : 17.1
upright = bars > 20
width = upright ? 250 + ceil(1.4 * rowh * bars) : 1000
width = width < 1000 ? 1000 : width > 1600 ? 1600 : width
readable = floor((1600 - 250) / (1.2 * rowh))
if (bars > readable) {
	print sprintf("plot: %d bars, more than their labels can be read under (%d); plot a subset of the rows", bars, readable)
}
# The canvas grows by the height of labels longer than the 150 pixels it
# leaves them: about 33 characters at -30 degrees, 16 standing.
labelh = LABEL_max * charw * (upright ? 1 : 0.5)
height = 650 + (labelh > 150 ? ceil(labelh - 150) : 0)

# A label slanted at 30 degrees runs left of its bar by its length x cos 30:
# the first one's sets the left margin (in characters) where it would run
# off the canvas (the plot starts about 10 characters in).
stats ARG1 every ::1::1 using (strlen(strcol(1))) nooutput name "FIRST"   # row 0: the header
slot = (width - 250.0) / (bars > 0 ? bars : 1)
lm = upright ? 10 : ceil((FIRST_max * charw * 0.866 - slot / 2) / charw) + 2
lm = lm < 10 ? 10 : lm
if (ext eq "svg") {
	set terminal svg size width,height dynamic enhanced font "sans,12"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size width,height enhanced font "sans,11"
	} else {
		set terminal png size width,height
	}
}
set output ARG2

set lmargin lm
set title "Where the time of one step goes".(subtitle ne "" ? "\n".subtitle : "") noenhanced
set ylabel (share ? "share of the step (%)" : "time per step (s)")
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set key outside right top vertical noenhanced
if (upright) {
	set xtics rotate by 90 right noenhanced
} else {
	set xtics rotate by 30 right noenhanced   # each label ends at its own bar
}
set grid ytics
if (share) { set yrange [0:100] } else { set yrange [0:*] }
plot for [i=2:ncol] ARG1 using i:xtic(1) title columnheader(i) lc (i-1)
