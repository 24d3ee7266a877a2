# embed.awk: turns the plot scripts (plots/*.gp) into C strings, so that
# `trainsim plot` carries them and can copy them beside every picture:
#   awk -f plots/embed.awk plots/speed.gp ... > sim/plot_scripts.c
# Characters are escaped one by one (gsub's handling of backslashes differs
# between awk implementations).
function c_string(line,    out, i, c) {
	out = ""
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (c == "\\" || c == "\"")
			out = out "\\"
		out = out c
	}
	return out
}
BEGIN {
	print "/* plot_scripts.c: generated from the scripts in plots/ by plots/embed.awk; do not edit. */"
	print "#include <string.h>"
	print "#include \"plot.h\""
	n = 0
}
FNR == 1 {
	if (n > 0)
		print ";"
	name = FILENAME
	sub(/.*\//, "", name)
	sub(/\.gp$/, "", name)
	names[++n] = name
	printf "static const char gp_%s[] =\n", name
}
{ printf "\t\"%s\\n\"\n", c_string($0) }
END {
	print ";"
	print "const char *plot_script(const char *kind)"
	print "{"
	for (i = 1; i <= n; i++)
		printf "\tif (!strcmp(kind, \"%s\"))\n\t\treturn gp_%s;\n", names[i], names[i]
	print "\treturn NULL;"
	print "}"
}
