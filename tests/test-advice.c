/* test-advice.c: a finding's advice follows the cause it names: the
 * ledger state most of its time came from, on traces built with each
 * cause and on the real ResNet traces
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-analysis.h"
#include "test-gen.h"
#include "test-utils.h"

/* Per ledger state: the cause a title names and words only its advice
 * has. */
static const struct {
  const char *state;
  const char *cause;
  const char *advice;
} causes[] = {
  { "idle_host", "host", "before the launch" },
  { "idle_launch", "launch latency", "between its launch and its start" },
  { "idle_sync", "sync", "remove the synchronisation" },
  { "idle_data", "data loading", "DataLoader" },
  { "idle_peer", "peer", "arrives last" },
  { "idle_other", "other", "does not name" },
};

/* The idle state F's claimed time was mostly in, from its
 * claimed_<state>_ns evidence; the cause its title names and its advice
 * must be that state's, and no other's. */
static const char *
check_advice (const ChronoFinding *f)
{
  gdouble most = 0;
  guint best = G_N_ELEMENTS (causes);

  for (guint i = 0; i < f->n_evidence; i++)
    for (guint k = 0; k < G_N_ELEMENTS (causes); k++)
      {
        g_autofree char *key = g_strdup_printf ("claimed_%s_ns", causes[k].state);

        if (strcmp (f->evidence[i].key, key) == 0 && f->evidence[i].value > most)
          {
            most = f->evidence[i].value;
            best = k;
          }
      }
  g_test_message ("%s: %s — %s", f->rule, f->title, f->recommendation);
  g_assert_cmpuint (best, <, G_N_ELEMENTS (causes));
  if (strcmp (f->rule, "host-bound") != 0)
    {
      g_autofree char *named = g_strdup_printf ("(cause: %s)", causes[best].cause);

      g_assert_nonnull (strstr (f->title, named));
    }
  for (guint k = 0; k < G_N_ELEMENTS (causes); k++)
    if (k == best)
      g_assert_nonnull (strstr (f->recommendation, causes[k].advice));
    else
      g_assert_null (strstr (f->recommendation, causes[k].advice));
  return causes[best].state;
}

static ChronoAnalysis *
analyse (ChronoTrace                    *trace,
         const ChronoAnalysisThresholds *thresholds)
{
  g_autoptr(GError) error = NULL;
  ChronoAnalysisOptions options;
  ChronoAnalysis *a;

  chrono_analysis_options_init (&options);
  if (thresholds != NULL)
    options.thresholds = *thresholds;
  a = chrono_analysis_run (&trace, 1, &options, NULL, &error);
  g_assert_no_error (error);
  return a;
}

/* Every finding of RULE in A follows its cause; the states of those that
 * name one, in order. */
static char *
check_rule (ChronoAnalysis *a,
            const char     *rule)
{
  GString *states = g_string_new (NULL);

  for (guint i = 0; i < chrono_analysis_get_n_findings (a); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (a, i);

      if (strcmp (f->rule, rule) == 0)
        g_string_append_printf (states, "%s%s", states->len ? " " : "", check_advice (f));
    }
  return g_string_free (states, FALSE);
}

/* Thresholds under which the rules of the causes stay silent, so that
 * the gap is left to gpu-idle-gap to name. */
static void
quiet_causes (ChronoAnalysisThresholds *th)
{
  chrono_analysis_thresholds_init (th);
  th->data_loading_percent = 100;
  th->host_bound_percent = 100;
  th->slow_step_percent = 10000;
  th->low_utilization_percent = 0;
}

/* The causes RULE names in the trace G wrote, with the rules of the
 * causes kept silent when QUIET, else under the default thresholds. */
static char *
causes_named (Gen        *g,
              const char *rule,
              gboolean    quiet)
{
  ChronoAnalysisThresholds th;
  g_autoptr(ChronoTrace) trace = gen_finish (g, rule, 0);
  g_autoptr(ChronoAnalysis) a = NULL;

  quiet_causes (&th);
  a = analyse (trace, quiet ? &th : NULL);
  return check_rule (a, rule);
}

/* Step 1 waits 400 µs for the data loader (planted-gap in test-analysis). */
static void
test_built_data (void)
{
  Gen g;
  g_autofree char *states = NULL;

  gen_data_loading (&g);
  states = causes_named (&g, "gpu-idle-gap", TRUE);
  g_assert_cmpstr (states, ==, "idle_data");
}

/* Ten kernels, each launched 300 µs after the one before ended: the
 * host (planted-host-bound in test-analysis). */
static void
test_built_host (void)
{
  Gen g;
  g_autofree char *gaps = NULL;
  g_autofree char *host_bound = NULL;

  gen_host_paced (&g, "gemm");
  gaps = causes_named (&g, "gpu-idle-gap", TRUE);
  g_assert_cmpstr (gaps, ==, "idle_host idle_host idle_host idle_host idle_host idle_host idle_host idle_host "
                             "idle_host idle_host");
  /* With its threshold, host-bound claims the same time, with the same advice. */
  gen_host_paced (&g, "gemm");
  host_bound = causes_named (&g, "host-bound", FALSE);
  g_assert_cmpstr (host_bound, ==, "idle_host");
}

/* A synchronising call between two steps drains the queue; the host
 * launches the next step 290 µs later. */
static void
test_built_sync (void)
{
  Gen g;
  g_autofree char *states = NULL;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  gen_event (&g, "cuda_runtime", "cudaDeviceSynchronize", 100, 100, 1002, 8, "");
  gen_step (&g, 1, 1300);
  for (int k = 0; k < 20; k++)
    gen_kernel (&g, "gemm", 1302 + 5 * k, 1310 + 50 * k, 49);
  states = causes_named (&g, "gpu-idle-gap", TRUE);
  g_assert_cmpstr (states, ==, "idle_sync");
}

/* Work launched at once that starts 400 µs later waited for something
 * the trace does not show. */
static void
test_built_other (void)
{
  Gen g;
  g_autofree char *states = NULL;

  gen_init (&g);
  gen_busy_step (&g, 0, 0);
  gen_step (&g, 1, 1000);
  for (int k = 0; k < 20; k++)
    gen_kernel (&g, "gemm", 1002 + 5 * k, 1500 + 50 * k, 49);
  states = causes_named (&g, "gpu-idle-gap", TRUE);
  g_assert_cmpstr (states, ==, "idle_other");
}

/* The ResNet-50 traces with a data loader: where an idle gap is named
 * after data loading, its advice is the data loader's; every gap,
 * utilisation and host-bound finding follows its cause. */
static void
test_real_resnet (void)
{
  static const char * const names[] = {
    "kineto__tbplugin_resnet50_autograd_nw0__worker0.pt.trace.json.gz",
    "kineto__tbplugin_resnet50_nw0__worker0.1623143089861.pt.trace.json.gz",
    "kineto__plugin_resnet50_nw0__worker0.pt.trace.json.gz",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(ChronoTrace) trace = test_traces_load (names[i]);
      g_autoptr(ChronoAnalysis) a = NULL;
      g_autofree char *gaps = NULL;
      g_autofree char *low = NULL;
      g_autofree char *host = NULL;

      if (trace == NULL)
        return;
      a = analyse (trace, NULL);
      gaps = check_rule (a, "gpu-idle-gap");
      low = check_rule (a, "low-utilization");
      host = check_rule (a, "host-bound");
      g_test_message ("%s: gaps %s; low utilisation %s; host-bound %s", names[i], gaps, low, host);
      if (i == 0)
        g_assert_nonnull (strstr (gaps, "idle_data"));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/advice/built/data-loading", test_built_data);
  g_test_add_func ("/advice/built/host", test_built_host);
  g_test_add_func ("/advice/built/sync", test_built_sync);
  g_test_add_func ("/advice/built/other", test_built_other);
  g_test_add_func ("/advice/real/resnet", test_real_resnet);
  return g_test_run ();
}
