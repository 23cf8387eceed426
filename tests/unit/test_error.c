/* rtipc_strerror, rtipc_error_name and the error codes of error.h. */
#include "test_support.h"

#include <limits.h>
#include <string.h>

#define UNKNOWN_TEXT "unknown rtipc error"

/* Every error code error.h defines (RTIPC_OK excluded: it is not an error). */
static const int error_codes[] = {
    RTIPC_EINVAL,   RTIPC_EWOULDBLOCK, RTIPC_ETIMEDOUT, RTIPC_ENOMEM, RTIPC_ECONTEXT, RTIPC_EOVERFLOW,
    RTIPC_EPERM,    RTIPC_EDEADLOCK,   RTIPC_ENOTSUP,   RTIPC_EPENDING, RTIPC_EBUSY,  RTIPC_ESYSTEM,
};
#define N_CODES (sizeof error_codes / sizeof error_codes[0])

static void codes_are_negative_and_distinct(void **state)
{
    (void)state;
    assert_int_equal(RTIPC_OK, 0);
    for (size_t i = 0; i < N_CODES; ++i) {
        assert_true(error_codes[i] < 0);
        for (size_t j = i + 1; j < N_CODES; ++j)
            assert_int_not_equal(error_codes[i], error_codes[j]);
    }
}

static void every_code_has_its_own_text(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; ++i) {
        const char *s = rtipc_strerror(error_codes[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        assert_string_not_equal(s, UNKNOWN_TEXT);
        for (size_t j = i + 1; j < N_CODES; ++j)
            assert_string_not_equal(s, rtipc_strerror(error_codes[j]));
    }
}

static void success_has_its_own_text(void **state)
{
    (void)state;
    const char *s = rtipc_strerror(RTIPC_OK);
    assert_non_null(s);
    assert_true(strlen(s) > 0);
    assert_string_not_equal(s, UNKNOWN_TEXT);
    for (size_t i = 0; i < N_CODES; ++i)
        assert_string_not_equal(s, rtipc_strerror(error_codes[i]));
}

static void every_code_has_its_name(void **state)
{
    (void)state;
    static const char *const names[] = {
        "RTIPC_EINVAL", "RTIPC_EWOULDBLOCK", "RTIPC_ETIMEDOUT", "RTIPC_ENOMEM", "RTIPC_ECONTEXT", "RTIPC_EOVERFLOW",
        "RTIPC_EPERM",  "RTIPC_EDEADLOCK",   "RTIPC_ENOTSUP",   "RTIPC_EPENDING", "RTIPC_EBUSY", "RTIPC_ESYSTEM",
    };
    _Static_assert(sizeof names / sizeof names[0] == N_CODES, "a name per code");
    for (size_t i = 0; i < N_CODES; ++i)
        assert_string_equal(rtipc_error_name(error_codes[i]), names[i]);
    assert_string_equal(rtipc_error_name(RTIPC_OK), "RTIPC_OK");
    const int unknown[] = {-13, -1000, 1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i)
        assert_null(rtipc_error_name(unknown[i]));
}

static void unknown_codes(void **state)
{
    (void)state;
    /* Just outside the defined range on both sides, and far away. */
    int lowest = 0;
    for (size_t i = 0; i < N_CODES; ++i)
        lowest = error_codes[i] < lowest ? error_codes[i] : lowest;
    const int unknown[] = {lowest - 1, lowest - 100, 1, 2, 12, 100, INT_MIN, INT_MAX, -1000};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; ++i)
        assert_string_equal(rtipc_strerror(unknown[i]), UNKNOWN_TEXT);
}

/* The text is a static string: the same pointer on every call. */
static void text_is_static(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; ++i)
        assert_ptr_equal(rtipc_strerror(error_codes[i]), rtipc_strerror(error_codes[i]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(codes_are_negative_and_distinct),
        cmocka_unit_test(every_code_has_its_own_text),
        cmocka_unit_test(success_has_its_own_text),
        cmocka_unit_test(every_code_has_its_name),
        cmocka_unit_test(unknown_codes),
        cmocka_unit_test(text_is_static),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
