/* fuzz_loader.c: libFuzzer target for the scenario loader. Any input is read
 * as a scenario file: a refusal must be a positioned message; an accepted
 * scenario must survive scn_write_yaml and loading again unchanged. */
#include <string.h>
#include "fuzz.h"
#include "scn_int.h"

#define NAME "fuzz.yaml"

int fuzz_loader_input(const uint8_t *data, size_t size)
{
	fuzz_cap c;
	scenario s;
	fuzz_cap_open(&c);
	/* No copy: the loader gets exactly `size` bytes, so ASan sees an over-read. */
	scn_doc *d = scn_doc_load_string((const char *)data, size, NAME, c.f);
	int rc = d ? scn_from_doc(d, &s, c.f, false) : -1;
	char *msg = fuzz_cap_close(&c);
	if (rc < 0)
		fuzz_check_message(msg, NAME, 0);
	else
		fuzz_check_warnings(msg, NAME, 0);
	free(msg);
	if (d) {
		/* a clone maps to the same scenario (or fails the same way) */
		scn_doc *k = scn_doc_clone(d);
		FUZZ_ASSERT(k != NULL, "scn_doc_clone failed");
		scenario t;
		fuzz_cap quiet;
		fuzz_cap_open(&quiet);
		int rk = scn_from_doc(k, &t, quiet.f, true);
		free(fuzz_cap_close(&quiet));
		FUZZ_ASSERT(rk == rc, "the clone maps with %d, the original with %d", rk, rc);
		if (rc == 0)
			FUZZ_ASSERT(!memcmp(&s.cluster, &t.cluster, sizeof s.cluster),
			            "the clone maps to another cluster");
		scn_release(&t);
		scn_doc_free(k);
	}
	if (rc == 0)
		fuzz_round_trip(&s);
	if (d)
		scn_release(&s);
	scn_doc_free(d);
	return 0;
}

#ifndef FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_loader_input(data, size);
}
#endif
