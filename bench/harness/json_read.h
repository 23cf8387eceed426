/* Reading members of parsed rtipc-bench/1 JSON (cJSON), shared by the
 * programs that load results files (compare, audit). */
#ifndef BENCH_JSON_READ_H
#define BENCH_JSON_READ_H

#include <cjson/cJSON.h>

/* The string member @p key of @p o, or NULL when absent or not a string. */
const char *bench_json_string(const cJSON *o, const char *key);

/* The number member @p key of @p o: 1 with *out set; 0 when null or absent
 * (*out = NAN); -1 when it has another type (*out = NAN). */
int bench_json_number(const cJSON *o, const char *key, double *out);

#endif
