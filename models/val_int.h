/* val_int.h: what the validation sources share (validate.c builds a case
 * from a row, val_train.c infers its training layout, val_metric.c reads its
 * metric and unit, val_text.c the phrases of its free text). Internal: the
 * public interface is validate.h. */
#ifndef TRAINSIM_VAL_INT_H
#define TRAINSIM_VAL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "validate.h"

/* ---- text (val_text.c): case-insensitive unless said ---- */
bool val__has(const char *hay, const char *needle);
/* whether any of the n needles[] is in hay, any case */
bool val__has_any(const char *hay, const char *const *needles, size_t n);
const char *val__find(const char *hay, const char *needle);
/* a whole token, case-sensitive ("SP" in "SP; interleaved", not in "DeepSpeed") */
bool val__has_word(const char *hay, const char *word);
/* a token of a metric name, any case, bounded by anything but a letter or digit */
bool val__has_token(const char *hay, const char *word);
/* the integer just before `at`, skipping blanks, an 'x' and, with skip_words, words */
int val__number_before(const char *text, const char *at, bool skip_words);
bool val__window_of(const char *o, scn_model *m, bool *pattern);
bool val__said_off(const char *at);
/* `name` turned off in the text ("NVLS disabled", "no NVLS") and nowhere
 * said to have run; the two tests it is made of */
bool val__turned_off(const char *t, const char *name);
bool val__off_after(const char *q);
bool val__negated_before(const char *t, const char *p);
/* the phrase, not negated just before it ("no", "non-", "not", "without", "disable") */
bool val__affirmed(const char *o, const char *phrase);
bool val__affirmed_word(const char *o, const char *word);
/* where a token that starts at p (len characters long) goes on, or NULL */
const char *val__token_tail(const char *o, const char *p, size_t len);
/* the number after the whole word `tok`; *layers when it counts layers */
int val__number_after_word(const char *o, const char *tok, bool *layers);
/* a model family or framework named in the row ("Llama 3", "Llama-3", "LLaMA3") */
bool val__names(const val_row *r, const char *family);
/* whether the word ending right before p (past the characters of `skip`)
 * is one of `words`, any case ("IB" before " x8", "moe" before "_ffn") */
bool val__word_before_in(const char *text, const char *p, const char *skip,
                         const char *const *words, size_t n);
/* whether the name at p in text is negated or compared in its clause ("not
 * H100", "unlike DeepSpeed", "faster than Megatron") */
bool val__disowned(const char *text, const char *p);
/* the clause around the n characters at p in o: back to and on to a comma,
 * semicolon or bracket, at most outlen - 1 characters */
void val__clause_around(const char *o, const char *p, size_t n, char *out, size_t outlen);
/* the number right after `tag` in a kernel name ("_s" in "..._s8192_b1") */
double val__num_after(const char *name, const char *tag);

/* a batch given in tokens at s ("4M tokens", "~4Mi tokens/step", "1024 x
 * 4096 tokens", "16M"): the token count (M = 2^20), else 0 (val_csv.c) */
double val__batch_tokens(const char *s);
/* the number at s in free text, thousands separated by commas ("13,824"; a
 * blank there ends it: "top 8 128 experts" is two numbers); *end after it,
 * s when no number starts there (val_csv.c) */
double val__number_grouped(const char *s, const char **end);

/* ---- mixture of experts (val_moe.c) ---- */
/* the shape of a MoE model the row names (Mixtral 8x7B, Qwen3-235B-A22B, ...) */
bool val__moe_shape(const val_row *r, int *layers, int *hidden, int *heads);
/* the dense MLP width other_parallel gives ("ffn 14336", "ffn_hidden=...",
 * "ffn-hidden-size", "intermediate_size"; not "moe_ffn"; "ffn=4h" is four
 * times `hidden`), or -1 */
/* Expert parallelism said in the text ("EP8", "EP=8", "8-way EP"); -1 if
 * none (val_moe.c). */
int val__ep_in(const char *o);
int val__ffn_in(const char *o, int hidden);
/* a transformer's shape written out in other_parallel ("80 layers, hidden size
 * 8192, 64 attention heads", "d_model=4096, n_layers=32, n_heads=32"): true
 * when layers, hidden and heads are all there; *seq too when it is (else 0) */
bool val__shape_in(const char *o, int *layers, int *hidden, int *heads, int *seq);
/* whether the row describes a MoE model (named, "experts", "EP8") */
bool val__moe_named(const val_row *r);
/* a MoE row's routing into s->model and expert parallelism into s->training
 * (tp, pp, dp set): 0 (also for a dense row), or -1 with why */
int val__moe_of(const val_row *r, scenario *s, bool *assumed, char *why, size_t n);

/* ---- training layout (val_train.c) ---- */
/* context parallelism named in other_parallel ("CP2", "context parallel 4"); 1 if none */
int val__cp_of(const char *o);
/* The number after a key that starts a word ("lora_rank=16", "global batch
 * size of 1536"); 0 if none. */
int val__key_number(const char *o, const char *key);
/* the parallel layout, batch, precision, recomputation, schedule and overlaps of
 * a row into s->training (the model is set): 0, or -1 with why */
/* A row whose scenario the loader would refuse (heads that tp does not
 * divide, micro-batches that do not divide the batch, ...) is refused with
 * the loader's reason: `trainsim run` on its `--show` would stop the same way,
 * and nothing downstream simulates a layout no user could write. */
int val__runnable(const scenario *s, char *why, size_t n);

int val__training_of(const val_row *r, scenario *s, bool layer_only, bool *assumed, char *why,
                     size_t n);

/* ---- metric and unit (val_metric.c) ---- */
val_metric val__metric_of(const char *name, const char *unit);
/* a collective benchmark row's metric, with its op, algorithm and size in c */
val_metric val__coll_metric(const char *name, val_case *c);
bool val__per_gpu(const val_row *r);
bool val__per_node(const val_row *r);
const char *val__not_predicted(const char *name);
bool val__time_unit(const char *u);
double val__unit_scale(const char *u, val_metric m, double value);
bool val__param_source(const val_row *r, val_metric m);

#endif
