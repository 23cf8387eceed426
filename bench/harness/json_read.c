/* Members of parsed results files (json_read.h). */
#include "json_read.h"

#include <math.h>

const char *bench_json_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

int bench_json_number(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = NAN;
    if (!v || cJSON_IsNull(v))
        return 0;
    if (!cJSON_IsNumber(v))
        return -1;
    *out = v->valuedouble;
    return 1;
}
