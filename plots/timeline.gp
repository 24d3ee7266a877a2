# plots/timeline.gp: a per-GPU timeline of one simulated step: one row per
# GPU stream, one colour per kind of work (compute, TP/PP/DP communication,
# bubble, stalls). Written beside the picture by `trainsim plot --kind
# timeline -o NAME.png`, as NAME.gp, its data as NAME.dat; redraw:
#   gnuplot -c NAME.gp NAME.dat NAME.png [FROM TO]
# (FROM and TO in seconds, TO '*' for the step's end: a window of the step)
# DATA: one block per category (two blank lines apart), each starting with
# the category's name, in a fixed order (compute, tp_comm, pp_comm, pp_bubble,
# dp_comm, data_stall, checkpoint, optimizer, idle, the compute ops' forward,
# backward and recompute, then others) so that a category keeps its colour:
# block k is drawn with linetype k+1, which `trainsim plot` gives the
# category's colour below this comment (the same in every split and timeline
# picture); an absent one has an empty name and a point off the rows;
# columns: start (s), end (s), row, row label. The last block ("labels")
# names the ops wide enough to hold their name (F3, B3): centre, centre,
# row, name.
if (ARGC < 2) { print "usage: gnuplot -c ".ARG0." DATA.dat OUT.png|svg [FROM TO]"; exit status 2 }
if (!exists("subtitle")) { subtitle = "" }   # the run's name: trainsim writes it above

stats ARG1 using 3 nooutput
nb = STATS_blocks
nrows = STATS_max + 1

ext = ARG2[strlen(ARG2)-2:]   # gnuplot strings count from 1
height = 200 + 22 * nrows
if (height > 4000) { height = 4000 }
if (ext eq "svg") {
	set terminal svg size 1200,height dynamic enhanced font "sans,11"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo size 1200,height enhanced font "sans,10"
	} else {
		set terminal png size 1200,height
	}
}
set output ARG2

set title "Timeline of one step".(subtitle ne "" ? "\n".subtitle : "") noenhanced
set xlabel "time since the start of the step"
set format x "%.1s %cs"   # SI prefixes: 2.5 ms, 50.0 s
if (ARGC >= 4) {          # a window: its range, and ticks fine enough to tell apart
	set xrange [@ARG3:@ARG4]   # as macros: "1e-05" is no string gnuplot adds to 0
	set format x "%.3s %cs"
}
set yrange [nrows-0.5:-0.5]
set ytics noenhanced
set grid xtics
set key outside right top vertical noenhanced
set style fill solid 0.9 noborder
plot for [i=0:nb-2] ARG1 index i using (($1+$2)/2):3:(($2-$1)/2):(0.4):ytic(4) \
	with boxxyerror lc i+1 title columnheader(1), \
	ARG1 index nb-1 using 1:3:4 with labels font ",7" tc rgb "white" notitle
