# val_bands.awk: turns models/val_bands.csv (written by `make validation-bands`:
# trainsim validate --by-gpu --format csv over tests/validation/*.csv) into
# the table the reports read, models/val_bands.c:
#   awk -F, -f models/val_bands.awk models/val_bands.csv > models/val_bands.c
# Columns: gpu,model,runs,families,median_pct,q1_pct,q3_pct.
BEGIN {
	print "/* val_bands.c: generated from models/val_bands.csv by models/val_bands.awk; do not edit. */"
	print "#include \"validate.h\""
	print ""
	print "const val_band val_bands[] = {"
	n = 0
}
NR == 1 {
	if ($0 != "gpu,model,runs,families,median_pct,q1_pct,q3_pct") {
		print "val_bands.awk: unexpected header: " $0 > "/dev/stderr"
		exit 1
	}
	next
}
NF == 7 {
	printf "\t{\"%s\", %s, %d, %d, %s, %s, %s},\n", $1, ($2 == "moe" ? "true" : "false"), $3, $4, $5, $6, $7
	n++
}
END {
	if (n == 0)
		print "\t{\"\", false, 0, 0, 0, 0, 0},"
	print "};"
	printf "const size_t val_nbands = %d;\n", n
}
