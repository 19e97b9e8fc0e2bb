# Stacked bars: one bar per variant, one segment per part (such as the
# allocation sites of memory per cdev).  Segments differ in fill pattern,
# for black-and-white print.
#
# gnuplot -e "data='d.dat'; ylabel='bytes per cdev'; out='x'; title='...'" stacked.gp
# Optional: keytitle (default "allocation site"); fill='colour' for a
# colour of its own per part (from a palette), where there are more parts
# than fill patterns.
# data: a header line "variant part1 part2 ...", then one line per
# variant with the value of each part (0 where it has none).
# Writes out.png and out.svg.

ncols = system("head -1 " . data . " | wc -w") + 0
if (!exists("keytitle")) keytitle = "allocation site"
if (!exists("fill")) fill = "pattern"

do for [fmt in "png svg"] {
	if (fmt eq "png") {
		set terminal pngcairo size 900,480 font "sans,10"
	} else {
		set terminal svg size 900,480 font "sans,10"
	}
	set output out . "." . fmt
	set title title noenhanced
	set ylabel ylabel
	set xlabel "variant"
	# slanted, so that six arms' names (cdev-open-local ...) do not run
	# into each other
	set xtics rotate by -25 left noenhanced
	set yrange [0:*]
	set style data histograms
	set style histogram rowstacked
	set style fill pattern border -1
	set boxwidth 0.5
	set grid ytics
	set key outside right top noenhanced title keytitle
	if (fill eq "colour") {
		set palette defined (0 "#1b9e77", 1 "#d95f02", 2 "#7570b3", 3 "#e7298a", 4 "#66a61e", 5 "#e6ab02", 6 "#a6761d", 7 "#666666")
		unset colorbox
		plot for [c = 2:ncols] data using c:xtic(1) title columnhead(c) \
			fs solid 0.8 border -1 lc palette frac (ncols > 2 ? (c - 2.0) / (ncols - 2) : 0)
	} else {
		plot for [c = 2:ncols] data using c:xtic(1) title columnhead(c) fs pattern (c - 2) % 8 lc black
	}
}
