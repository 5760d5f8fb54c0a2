/* test-format.c: names and numbers as people read them: the short name
 * of a kernel's C++ signature
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-format.h"

static void
test_short_name (void)
{
  static const struct {
    const char *name;
    const char *expected;  /* NULL: shown as it is */
  } cases[] = {
    /* As CUDA and ROCm profilers write them. */
    { "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
      "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
      "at::native::vectorized_elementwise_kernel<…>(…)" },
    { "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
      "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
      "at::native::(anonymous namespace)::cunn_SoftMaxForward<…>(…)" },
    { "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
      "cutlass::Kernel<…>(…)" },
    { "std::pair<int, int> ns::f<std::vector<int> >()", "ns::f<…>()" },
    { "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL(…)" },
    { "iteration(44)", NULL },
    /* Not signatures: names of other things. */
    { "ampere_sgemm_128x64_nn", NULL },
    { "aten::mm", NULL },
    { "Memcpy HtoD (Pageable -> Device)", NULL },
    { "model.py(44): forward", NULL },
    { "ProfilerStep#3", NULL },
    { "void broken<int(", NULL },
    { "a::b<(", NULL },
    { ")", NULL },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shortened = chrono_format_short_name (cases[i].name);

      g_test_message ("%s -> %s", cases[i].name, shortened ? shortened : "(as it is)");
      g_assert_cmpstr (shortened, ==, cases[i].expected);
    }
}

/* A signed difference: the sign, then the duration as it reads alone;
 * no sign for none. The sign is the exact difference's, so a fraction
 * of a nanosecond keeps its direction. */
static void
test_duration_change (void)
{
  static const struct { gdouble ns; const char *text; } cases[] = {
    { 1.2e6, "+1.200 ms" },
    { -300e3, "−300.000 µs" },
    { 0.4, "+0 ns" },
    { 0, "0 ns" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = chrono_format_duration_change (cases[i].ns);
      g_autofree char *alone = chrono_format_duration ((gint64) llround (fabs (cases[i].ns)));

      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_true (g_str_has_suffix (text, alone));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/format/short-name", test_short_name);
  g_test_add_func ("/format/duration-change", test_duration_change);
  return g_test_run ();
}
