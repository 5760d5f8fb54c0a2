/* test-flops-series.c: a device's FLOPs over time, against the FLOPs of
 * the kernels each call launched, found here from the trace's own
 * correlation ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis.h"
#include "chrono-efficiency.h"
#include "chrono-example-trace.h"
#include "chrono-flops-series.h"
#include "test-utils.h"

/* Pieces by hand: overlapping ones add up, a piece of no duration is
 * given one ns, and a range sees each piece's share of its FLOPs. */
/* The analysis as the timeline asks for it: with each device's series. */
static ChronoAnalysis *
run_with_series (ChronoTrace *trace,
                 GError     **error)
{
  ChronoAnalysisOptions options;

  chrono_analysis_options_init (&options);
  options.with_flops_series = TRUE;
  return chrono_analysis_run (&trace, 1, &options, NULL, error);
}

static void
test_pieces (void)
{
  const ChronoFlopsPiece pieces[] = {
    { 100, 200, 1000 },   /* 10 per ns */
    { 150, 250, 500 },    /* 5 per ns, over the first's end */
    { 400, 400, 7 },      /* no duration: 7 in [400, 401) */
  };
  ChronoFlopsSeries s = { 0 };

  chrono_flops_series_init (&s, pieces, G_N_ELEMENTS (pieces));
  g_assert_cmpfloat (s.total_flops, ==, 1507);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 0, 100), ==, 0);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 100, 150), ==, 500);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 150, 200), ==, 750);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 175, 225), ==, 250 + 250);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 300, 1000), ==, 7);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, -1000, 100000), ==, 1507);
  g_assert_cmpfloat (chrono_flops_series_get_flops (&s, 200, 150), ==, 0);
  chrono_flops_series_clear (&s);
}

/* ------------------------------------------------------------------ */
/* Real traces                                                         */

typedef struct {
  gint64 start;
  gint64 end;
  gint64 device;
} Kernel;

typedef struct {
  gint64  start;
  gint64  end;
  gdouble flops;
} Expected;

/* The integer member KEY of the flat args object of span I of T, as the
 * file writes it; FALSE when it has none. */
static gboolean
read_arg (ChronoTrace       *trace,
          const ChronoTrack *t,
          guint32            i,
          const char        *key,
          gint64            *value)
{
  g_autofree char *needle = g_strdup_printf ("\"%s\":", key);
  gsize available;
  const char *text = chrono_trace_get_raw_text (trace, chrono_track_get_args (t, i), &available);
  const char *end, *found;

  if (text == NULL || (end = memchr (text, '}', available)) == NULL ||
      (found = g_strstr_len (text, end - text, needle)) == NULL)
    return FALSE;
  *value = g_ascii_strtoll (found + strlen (needle), NULL, 10);
  return TRUE;
}

/* FLOPs of EXPECTED in [A, B), each spread evenly over its kernel. */
static gdouble
expected_flops (GArray *expected,
                gint64  a,
                gint64  b)
{
  gdouble sum = 0;

  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);
      gint64 end = MAX (e->end, e->start + 1);
      gint64 lo = MAX (a, e->start), hi = MIN (b, end);

      if (hi > lo)
        sum += e->flops * (gdouble) (hi - lo) / (gdouble) (end - e->start);
    }
  return sum;
}

static void
check_close (const char *name,
             gdouble     got,
             gdouble     want,
             gdouble     total)
{
  /* Sums in a different order: a rounding error of the whole, at most. */
  if (fabs (got - want) > 1e-9 * total + 1e-9 * fabs (want))
    g_error ("%s: %.9g FLOPs in the counter, %.9g from the kernels", name, got, want);
}

/* Device work by the correlation id its args give. */
static GHashTable *
index_kernels (ChronoTrace *trace)
{
  GHashTable *kernels = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);

  for (guint ti = 0; ti < chrono_trace_get_n_tracks (trace); ti++)
    {
      const ChronoTrack *t = chrono_trace_get_track (trace, ti);

      if (!chrono_trace_get_process (trace, t->process)->is_device)
        continue;
      for (guint32 i = 0; i < t->n_spans; i++)
        {
          Kernel k = { t->start[i], chrono_track_get_end (t, i), -1 };
          gint64 corr;

          if ((t->kind[i] != CHRONO_KIND_KERNEL && t->kind[i] != CHRONO_KIND_MEMCPY &&
               t->kind[i] != CHRONO_KIND_MEMSET && t->kind[i] != CHRONO_KIND_COLLECTIVE) ||
              !read_arg (trace, t, i, "correlation", &corr))
            continue;
          read_arg (trace, t, i, "device", &k.device);
          g_hash_table_insert (kernels, g_memdup2 (&corr, sizeof corr), g_memdup2 (&k, sizeof k));
        }
    }
  return kernels;
}

/* Each call's FLOPs over the kernels its runtime calls launched on the
 * row's device, by their durations: device -> GArray of Expected. */
static GHashTable *
expected_pieces (ChronoTrace    *trace,
                 ChronoAnalysis *a)
{
  g_autoptr(GHashTable) kernels = index_kernels (trace);
  GHashTable *by_device = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                 (GDestroyNotify) g_array_unref);

  for (guint i = 0; i < chrono_analysis_get_n_efficiency (a); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (a, i);
      gint64 device = r->device;
      GArray *expected = g_hash_table_lookup (by_device, &device);

      if (expected == NULL)
        {
          expected = g_array_new (FALSE, FALSE, sizeof (Expected));
          g_hash_table_insert (by_device, g_memdup2 (&device, sizeof device), expected);
        }
      for (guint c = 0; c < r->n_calls; c++)
        {
          const ChronoTrack *t = chrono_trace_get_track (trace, r->calls[c].track);
          gint64 end = chrono_track_get_end (t, r->calls[c].index);
          guint first = expected->len;
          gint64 call_ns = 0;

          /* The runtime calls on the operator's thread during it. */
          for (guint32 k = r->calls[c].index; k < t->n_spans && t->start[k] <= end; k++)
            {
              const Kernel *kernel;
              gint64 corr;

              if ((t->kind[k] != CHRONO_KIND_RUNTIME && t->kind[k] != CHRONO_KIND_DRIVER) ||
                  chrono_track_get_end (t, k) > end || !read_arg (trace, t, k, "correlation", &corr) ||
                  (kernel = g_hash_table_lookup (kernels, &corr)) == NULL || kernel->device != device)
                continue;
              g_array_append_val (expected, ((Expected) { kernel->start, kernel->end, 0 }));
              call_ns += MAX (kernel->end - kernel->start, 1);
            }
          g_assert_cmpuint (expected->len, >, first);
          for (guint k = first; k < expected->len; k++)
            {
              Expected *x = &g_array_index (expected, Expected, k);
              x->flops = r->flops * MAX (x->end - x->start, 1) / call_ns;
            }
        }
    }
  return by_device;
}

/* Asked for no series, the analysis builds none, and its efficiency is
 * the same row for row. */
static void
check_without_series (ChronoTrace    *trace,
                      ChronoAnalysis *with)
{
  g_autoptr(ChronoAnalysis) without = NULL;
  g_autoptr(GError) error = NULL;

  without = chrono_analysis_run (&trace, 1, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (without), ==, 0);
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (without), ==, chrono_analysis_get_n_efficiency (with));
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (with); i++)
    {
      const ChronoEfficiencyRow *a = chrono_analysis_get_efficiency (with, i);
      const ChronoEfficiencyRow *b = chrono_analysis_get_efficiency (without, i);

      g_assert_cmpstr (a->op, ==, b->op);
      g_assert_cmpint (a->gpu_time_ns, ==, b->gpu_time_ns);
      g_assert_cmpfloat (a->flops, ==, b->flops);
    }
}

static void
check_trace (const char  *label,
             ChronoTrace *trace)
{
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GHashTable) by_device = NULL;
  g_autoptr(GError) error = NULL;
  GRand *rand = g_rand_new_with_seed (11);
  guint n_checked = 0;

  a = run_with_series (trace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), >, 0);
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (a), >, 0);
  check_without_series (trace, a);
  by_device = expected_pieces (trace, a);

  g_assert_cmpuint (chrono_analysis_get_n_flops_series (a), ==, g_hash_table_size (by_device));
  for (guint i = 0; i < chrono_analysis_get_n_flops_series (a); i++)
    {
      const ChronoFlopsSeries *s = chrono_analysis_get_flops_series (a, i);
      gint64 device = s->device;
      GArray *expected = g_hash_table_lookup (by_device, &device);
      gint64 first = G_MAXINT64, last = G_MININT64;
      gdouble total, columns = 0;

      g_assert_nonnull (expected);
      for (guint k = 0; k < expected->len; k++)
        {
          first = MIN (first, g_array_index (expected, Expected, k).start);
          last = MAX (last, g_array_index (expected, Expected, k).end + 1);
        }
      total = expected_flops (expected, first, last);
      g_assert_cmpfloat (total, >, 0);
      check_close (label, s->total_flops, total, total);
      check_close (label, chrono_flops_series_get_flops (s, first, last), total, total);
      /* Ranges anywhere, cutting kernels, of every length down to 1 ns. */
      for (guint n = 0; n < 300; n++)
        {
          gint64 from = first + (gint64) (g_rand_double (rand) * (last - first));
          gint64 len = (gint64) exp (g_rand_double (rand) * log ((gdouble) (last - first)));

          check_close (label, chrono_flops_series_get_flops (s, from, from + len),
                       expected_flops (expected, from, from + len), total);
          n_checked++;
        }
      /* Columns of a view add up to its range. */
      for (guint x = 0; x < 1600; x++)
        columns += chrono_flops_series_get_flops (s, first + (last - first) * x / 1600,
                                                  first + (last - first) * (x + 1) / 1600);
      check_close (label, columns, total, total);
    }
  g_assert_cmpuint (n_checked, >, 0);
  g_rand_free (rand);
}

static void
test_real (void)
{
  static const char * const names[] = {
    "hta__trace_diff_control__control.json.gz",
    "hta__neg_queue_len__rank0.json.gz",
    "param__dlrm_8rank__worker0_step_12.1694128201545.pt.trace.json",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(ChronoTrace) trace = test_traces_load (names[i]);

      if (trace != NULL)
        check_trace (names[i], trace);
    }
}

/* The example's GEMMs, attention and elementwise operators have shapes. */
static void
test_example (void)
{
  g_autofree char *dir = g_dir_make_tmp ("chronoscope-flops-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "example.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  ChronoExampleOptions options;

  chrono_example_options_init (&options);
  options.n_steps = 3;
  g_assert_true (chrono_example_trace_write (path, &options, NULL, &error));
  g_assert_no_error (error);
  trace = chrono_trace_load_file (path, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_trace ("example", trace);
  g_clear_object (&trace);
  g_unlink (path);
  g_rmdir (dir);
}

/* No shapes: no series, and the efficiency's notes say why. */
static void
test_no_shapes (void)
{
  g_autoptr(ChronoTrace) trace = test_traces_load ("hta__cp_alexnet__benchmark_result_2869224_1695835535_trace.json.gz");
  g_autoptr(ChronoAnalysis) a = NULL;
  g_autoptr(GError) error = NULL;

  if (trace == NULL)
    return;
  a = run_with_series (trace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (chrono_analysis_get_n_efficiency (a), ==, 0);
  g_assert_cmpuint (chrono_analysis_get_n_flops_series (a), ==, 0);
  g_assert_nonnull (chrono_analysis_get_efficiency_notes (a)[0]);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flops-series/pieces", test_pieces);
  g_test_add_func ("/flops-series/real", test_real);
  g_test_add_func ("/flops-series/example", test_example);
  g_test_add_func ("/flops-series/no-shapes", test_no_shapes);
  return g_test_run ();
}
