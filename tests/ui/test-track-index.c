/* test-track-index.c: rows, visible spans, merged runs and hit tests
 * against brute force on random tracks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-loader.h"
#include "chrono-track-index.h"

/* Epoch-scale: 2024-12-16 in µs, where doubles cannot hold every ns. */
#define BASE_US G_GINT64_CONSTANT (1734333959126914)

static const char *categories[] = {
  "cpu_op", "python_function", "user_annotation", "cuda_runtime", "kernel", "gpu_memcpy",
};

static const char *names[] = {
  "aten::add", "aten::mm", "aten::copy_", "cudaLaunchKernel", "ampere_sgemm_128x64_tn",
  "Memcpy HtoD", "forward", "backward", "optimizer.step", "nccl:all_reduce",
};

typedef struct {
  GString *json;
  GRand   *rand;
  guint    tid;
  guint    n_events;
} Writer;

static void
write_span (Writer     *w,
            gint64      start_ns,
            gint64      dur_ns,
            const char *cat,
            const char *name)
{
  gint64 ts = BASE_US * 1000 + start_ns;

  g_string_append_printf (w->json,
                          "%s{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"cat\":\"%s\",\"name\":\"%s\","
                          "\"ts\":%" G_GINT64_FORMAT ".%03d,\"dur\":%" G_GINT64_FORMAT ".%03d}\n",
                          w->n_events++ ? "," : "", w->tid, cat, name,
                          ts / 1000, (int) (ts % 1000), dur_ns / 1000, (int) (dur_ns % 1000));
}

static gint64
log_uniform (GRand *rand,
             double lo,
             double hi)
{
  return (gint64) exp (g_rand_double_range (rand, log (lo), log (hi)));
}

/* A span and, inside it, children one after the other. */
static void
write_tree (Writer *w,
            gint64  start,
            gint64  dur,
            guint   depth)
{
  gint64 cursor = start;

  write_span (w, start, dur,
              categories[g_rand_int_range (w->rand, 0, G_N_ELEMENTS (categories))],
              names[g_rand_int_range (w->rand, 0, G_N_ELEMENTS (names))]);
  if (depth >= 6 || dur < 4)
    return;
  while (g_rand_double (w->rand) < 0.8)
    {
      gint64 gap = g_rand_boolean (w->rand) ? 0 : log_uniform (w->rand, 1, MAX (dur / 8, 2));
      gint64 child = log_uniform (w->rand, 1, MAX (dur / 3, 2));

      if (g_rand_double (w->rand) < 0.05)
        child = 0;
      if (cursor + gap + child > start + dur)
        break;
      write_tree (w, cursor + gap, child, depth + 1);
      cursor += gap + child;
    }
}

/* Threads of nested spans at mixed densities, with zero-length spans and
 * spans that overlap their neighbours without nesting (further lanes). */
static ChronoTrace *
random_trace (guint32 seed,
              guint   spans_per_thread)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  Writer w = { g_string_new ("{\"traceEvents\":[\n"), g_rand_new_with_seed (seed), 0, 0 };
  ChronoTrace *trace;

  for (w.tid = 1; w.tid <= 3; w.tid++)
    {
      guint first = w.n_events;
      gint64 cursor = 0;

      while (w.n_events - first < spans_per_thread)
        {
          gint64 dur = log_uniform (w.rand, 1, w.tid == 1 ? 1e4 : 1e7);

          cursor += g_rand_boolean (w.rand) ? 0 : log_uniform (w.rand, 1, 1e5);
          write_tree (&w, cursor, dur, 0);
          if (g_rand_double (w.rand) < 0.05)
            write_span (&w, cursor + dur / 2, dur, "cpu_op", "overlapping");
          cursor += dur;
        }
    }
  g_string_append (w.json, "]}\n");
  g_rand_free (w.rand);

  bytes = g_string_free_to_bytes (w.json);
  trace = chrono_trace_load_bytes (bytes, "random.json", &error);
  g_assert_no_error (error);
  return trace;
}

/* -------------------------------------------------------------------- */

static void
span_x (ChronoViewport    *viewport,
        const ChronoTrack *t,
        guint32            i,
        double            *x0,
        double            *x1)
{
  *x0 = chrono_viewport_time_to_x (viewport, t->start[i]);
  *x1 = chrono_viewport_time_to_x (viewport, t->start[i] + t->dur[i]);
}

/* Visible spans of ROW in row order, by testing every one of them. */
static GArray *
brute_visible (ChronoTrackIndex *index,
               guint             row,
               ChronoViewport   *viewport)
{
  const ChronoTrack *t = chrono_track_index_get_track (index);
  GArray *positions = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n;
  const guint32 *spans = chrono_track_index_get_row_spans (index, row, &n);

  for (guint32 p = 0; p < n; p++)
    {
      double x0, x1;

      span_x (viewport, t, spans[p], &x0, &x1);
      if (x1 >= 0 && x0 <= chrono_viewport_get_width_px (viewport))
        g_array_append_val (positions, p);
    }
  return positions;
}

/* What merging one span at a time gives. */
static GArray *
brute_runs (ChronoTrackIndex *index,
            guint             row,
            ChronoViewport   *viewport,
            double            min_width)
{
  const ChronoTrack *t = chrono_track_index_get_track (index);
  g_autoptr(GArray) visible = brute_visible (index, row, viewport);
  GArray *items = g_array_new (FALSE, FALSE, sizeof (ChronoRowItem));
  ChronoRowItem run = { 0 };
  gboolean in_run = FALSE;
  guint32 n;
  const guint32 *spans = chrono_track_index_get_row_spans (index, row, &n);

  for (guint v = 0; v < visible->len; v++)
    {
      guint32 p = g_array_index (visible, guint32, v);
      guint32 i = spans[p];
      double x0, x1;

      span_x (viewport, t, i, &x0, &x1);
      if (x1 - x0 >= min_width)
        {
          ChronoRowItem item = { x0, x1, p, 1, i, t->kind[i] };

          if (in_run)
            g_array_append_val (items, run);
          in_run = FALSE;
          g_array_append_val (items, item);
        }
      else if (in_run && chrono_track_index_joins_run (run.x1, x0))
        {
          run.n_spans++;
          run.x1 = MAX (run.x1, x1);
        }
      else
        {
          ChronoRowItem item = { x0, x1, p, 1, i, t->kind[i] };

          if (in_run)
            g_array_append_val (items, run);
          run = item;
          in_run = TRUE;
        }
    }
  if (in_run)
    g_array_append_val (items, run);
  return items;
}

static void
collect_item (const ChronoRowItem *item,
              gpointer             user_data)
{
  g_array_append_val ((GArray *) user_data, *item);
}

static GArray *
walk (ChronoTrackIndex *index,
      guint             row,
      ChronoViewport   *viewport,
      double            min_width,
      guint            *visits)
{
  GArray *items = g_array_new (FALSE, FALSE, sizeof (ChronoRowItem));
  guint v = chrono_track_index_walk_row (index, row, viewport, min_width, collect_item, items);

  if (visits != NULL)
    *visits = v;
  return items;
}

/* Bounds of the trace, WIDTH px, and a window of random length (10 ns to
 * everything, log-uniform) at a random place. */
static void
random_window (ChronoViewport *viewport,
               ChronoTrace    *trace,
               GRand          *rand)
{
  static const int widths[] = { 1, 7, 100, 1600 };
  gint64 start = chrono_trace_get_start_ns (trace);
  gint64 end = chrono_trace_get_end_ns (trace);
  gint64 duration = log_uniform (rand, CHRONO_VIEWPORT_MIN_DURATION_NS, (double) (end - start));
  gint64 at = start + (gint64) g_rand_double_range (rand, 0, (double) (end - start - duration));

  chrono_viewport_set_width_px (viewport, widths[g_rand_int_range (rand, 0, G_N_ELEMENTS (widths))]);
  chrono_viewport_set_bounds (viewport, start, end);
  chrono_viewport_zoom_to_range (viewport, at, at + duration);
}

/* -------------------------------------------------------------------- */

static void
test_rows (void)
{
  g_autoptr(ChronoTrace) trace = random_trace (1, 3000);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, k);
      const ChronoTrack *t = chrono_track_index_get_track (index);
      g_autofree guint *seen = g_new0 (guint, MAX (t->n_spans, 1));
      guint64 total = 0;

      for (guint r = 0; r < chrono_track_index_get_n_rows (index); r++)
        {
          guint32 n;
          const guint32 *spans = chrono_track_index_get_row_spans (index, r, &n);

          for (guint32 p = 0; p < n; p++)
            {
              g_assert_cmpuint (chrono_track_index_get_span_row (index, spans[p]), ==, r);
              if (p > 0)
                {
                  /* Start order, and no overlap within a row. */
                  g_assert_cmpuint (spans[p - 1], <, spans[p]);
                  g_assert_cmpint (t->start[spans[p - 1]] + t->dur[spans[p - 1]], <=, t->start[spans[p]]);
                }
              seen[spans[p]]++;
            }
          total += n;
        }
      g_assert_cmpuint (total, ==, t->n_spans);
      for (guint32 i = 0; i < t->n_spans; i++)
        g_assert_cmpuint (seen[i], ==, 1);
    }
}

/* With nothing merged, a walk hands out exactly the spans brute force
 * finds visible. */
static void
check_visible (ChronoTrace *trace,
               guint        n_windows,
               guint32      seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autoptr(GPtrArray) indexes = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    g_ptr_array_add (indexes, chrono_track_index_new (trace, k));

  for (guint w = 0; w < n_windows; w++)
    {
      random_window (viewport, trace, rand);
      for (guint k = 0; k < indexes->len; k++)
        {
          ChronoTrackIndex *index = g_ptr_array_index (indexes, k);

          for (guint r = 0; r < chrono_track_index_get_n_rows (index); r++)
            {
              g_autoptr(GArray) expected = brute_visible (index, r, viewport);
              g_autoptr(GArray) items = walk (index, r, viewport, 0, NULL);

              g_assert_cmpuint (items->len, ==, expected->len);
              for (guint i = 0; i < items->len; i++)
                {
                  const ChronoRowItem *item = &g_array_index (items, ChronoRowItem, i);

                  g_assert_cmpuint (item->n_spans, ==, 1);
                  g_assert_cmpuint (item->first, ==, g_array_index (expected, guint32, i));
                }
            }
        }
    }
}

static void
test_visible (void)
{
  g_autoptr(ChronoTrace) trace = random_trace (2, 4000);

  check_visible (trace, 200, 2);
}

/* Merged runs: the same as merging one span at a time, so every visible
 * span is in exactly one item, runs hold only narrow spans, and a run's
 * block reaches from its first start to its last end. */
static void
check_runs (ChronoTrace *trace,
            guint        n_windows,
            guint32      seed)
{
  static const double min_widths[] = { 0.25, 1.0, 2.0, 5.0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autoptr(GPtrArray) indexes = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    g_ptr_array_add (indexes, chrono_track_index_new (trace, k));

  for (guint w = 0; w < n_windows; w++)
    {
      double min_width = min_widths[g_rand_int_range (rand, 0, G_N_ELEMENTS (min_widths))];

      random_window (viewport, trace, rand);
      for (guint k = 0; k < indexes->len; k++)
        {
          ChronoTrackIndex *index = g_ptr_array_index (indexes, k);
          const ChronoTrack *t = chrono_track_index_get_track (index);

          for (guint r = 0; r < chrono_track_index_get_n_rows (index); r++)
            {
              g_autoptr(GArray) expected = brute_runs (index, r, viewport, min_width);
              g_autoptr(GArray) items = walk (index, r, viewport, min_width, NULL);
              guint32 n;
              const guint32 *spans = chrono_track_index_get_row_spans (index, r, &n);

              g_assert_cmpuint (items->len, ==, expected->len);
              for (guint i = 0; i < items->len; i++)
                {
                  const ChronoRowItem *item = &g_array_index (items, ChronoRowItem, i);
                  const ChronoRowItem *want = &g_array_index (expected, ChronoRowItem, i);

                  g_assert_cmpuint (item->first, ==, want->first);
                  g_assert_cmpuint (item->n_spans, ==, want->n_spans);
                  g_assert_cmpuint (item->span, ==, spans[item->first]);
                  g_assert_cmpfloat (item->x0, ==, want->x0);
                  g_assert_cmpfloat (item->x1, ==, want->x1);
                  if (item->n_spans == 1)
                    g_assert_cmpint (item->kind, ==, t->kind[item->span]);

                  for (guint32 p = item->first; item->n_spans > 1 && p < item->first + item->n_spans; p++)
                    {
                      double x0, x1;

                      span_x (viewport, t, spans[p], &x0, &x1);
                      g_assert_cmpfloat (x1 - x0, <, min_width);
                      g_assert_cmpfloat (x0, >=, item->x0);
                      g_assert_cmpfloat (x1, <=, item->x1);
                    }
                }
            }
        }
    }
}

static void
test_runs (void)
{
  g_autoptr(ChronoTrace) trace = random_trace (3, 4000);

  check_runs (trace, 200, 3);
}

/* One thread of N spans of 1 to 3 ns, mostly back to back, now and then
 * after a longer pause: at full zoom, a few long runs. */
static ChronoTrace *
dense_trace (guint n)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (n);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  Writer w = { g_string_new ("{\"traceEvents\":[\n"), rand, 1, 0 };
  gint64 cursor = 0;
  ChronoTrace *trace;

  for (guint i = 0; i < n; i++)
    {
      gint64 dur = g_rand_int_range (rand, 1, 4);
      gint64 gap = g_rand_int_range (rand, 0, 3);

      if (g_rand_int_range (rand, 0, n / 20) == 0)
        gap = n / 10;
      write_span (&w, cursor, dur, "kernel", "k");
      cursor += dur + gap;
    }
  g_string_append (w.json, "]}\n");
  bytes = g_string_free_to_bytes (w.json);
  trace = chrono_trace_load_bytes (bytes, "dense.json", &error);
  g_assert_no_error (error);
  return trace;
}

/* At full zoom, a dense row costs about the same whatever its length:
 * the pyramid takes whole blocks of spans that fall in one pixel. */
static void
test_far_zoom_visits (void)
{
  guint sizes[] = { 20000, 320000 };
  guint visits[G_N_ELEMENTS (sizes)];
  int width = 1600;

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(ChronoTrace) trace = dense_trace (sizes[s]);
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, 0);
      g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
      g_autoptr(GArray) items = NULL;

      chrono_viewport_set_width_px (viewport, width);
      chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace),
                                  chrono_trace_get_end_ns (trace));
      g_assert_cmpuint (chrono_track_index_get_n_rows (index), ==, 1);
      items = walk (index, 0, viewport, 2.0, &visits[s]);
      g_test_message ("%u spans: %u visits, %u items", sizes[s], visits[s], items->len);
      g_assert_cmpuint (visits[s], <, 4 * width);
    }
  g_assert_cmpuint (visits[1], <, 2 * visits[0]);
}

/* The span under a point, by measuring every span of the row. */
static gboolean
brute_hit (ChronoTrackIndex *index,
           ChronoViewport   *viewport,
           double            row_height,
           double            x,
           double            y,
           guint32          *span)
{
  const ChronoTrack *t = chrono_track_index_get_track (index);
  double row = floor (y / row_height);
  double best = G_MAXDOUBLE;
  gboolean found = FALSE;
  const guint32 *spans;
  guint32 n;

  if (row < 0 || row >= chrono_track_index_get_n_rows (index))
    return FALSE;
  spans = chrono_track_index_get_row_spans (index, (guint) row, &n);
  for (guint32 p = 0; p < n; p++)
    {
      guint32 i = spans[p];
      double x0, x1, d;

      span_x (viewport, t, i, &x0, &x1);
      d = MAX (0.0, MAX (x0 - x, x - x1));
      if (d > CHRONO_TRACK_INDEX_HIT_SLOP_PX)
        continue;
      if (!found || d < best || (d == best && t->dur[i] > t->dur[*span]))
        {
          found = TRUE;
          best = d;
          *span = i;
        }
    }
  return found;
}

static void
check_hits (ChronoTrace *trace,
            guint        n_windows,
            guint32      seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  double row_height = 17;
  guint hits = 0;

  for (guint k = 0; k < chrono_trace_get_n_tracks (trace); k++)
    {
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, k);
      double height = chrono_track_index_get_n_rows (index) * row_height;

      for (guint w = 0; w < n_windows; w++)
        {
          random_window (viewport, trace, rand);
          for (guint q = 0; q < 20; q++)
            {
              double x = g_rand_double_range (rand, -2, chrono_viewport_get_width_px (viewport) + 2);
              double y = g_rand_double_range (rand, -row_height, height + row_height);
              guint32 got = G_MAXUINT32, want = G_MAXUINT32;
              gboolean found = chrono_track_index_hit_test (index, viewport, row_height, x, y, &got);

              g_assert_cmpint (found, ==, brute_hit (index, viewport, row_height, x, y, &want));
              if (found)
                {
                  g_assert_cmpuint (got, ==, want);
                  hits++;
                }
            }
        }
    }
  g_test_message ("%u hits", hits);
  g_assert_cmpuint (hits, >, 0);
}

static void
test_hit_test (void)
{
  g_autoptr(ChronoTrace) trace = random_trace (5, 3000);

  check_hits (trace, 100, 5);
}

/* Past the model's depth cap, spans of one row overlap: walks and hit
 * tests must still see every one of them. */
static void
test_depth_cap (void)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackIndex) index = NULL;
  guint n = G_MAXUINT16 + 40;
  guint32 n_capped;

  /* Each span starts 1 µs after its parent and ends 1 µs before it; the
   * deepest 40, past the cap, share the last row. */
  for (guint i = 0; i < n; i++)
    g_string_append_printf (json,
                            "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"s%u\",\"ts\":%u,\"dur\":%u}\n",
                            i ? "," : "", i % 7, i, 2 * (n - i));
  g_string_append (json, "]}");
  bytes = g_string_free_to_bytes (g_steal_pointer (&json));
  trace = chrono_trace_load_bytes (bytes, "deep.json", &error);
  g_assert_no_error (error);

  index = chrono_track_index_new (trace, 0);
  g_assert_cmpuint (chrono_track_index_get_n_rows (index), ==, G_MAXUINT16 + 1);
  chrono_track_index_get_row_spans (index, G_MAXUINT16, &n_capped);
  g_assert_cmpuint (n_capped, ==, 40);

  check_visible (trace, 30, 6);
  check_runs (trace, 30, 7);
  check_hits (trace, 5, 8);
}

/* A run takes the kind that covers most of its time, whether its spans
 * were read one by one or through the pyramid. */
static void
test_dominant_kind (void)
{
  for (guint flip = 0; flip < 2; flip++)
    {
      g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[\n");
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(ChronoTrace) trace = NULL;
      g_autoptr(ChronoTrackIndex) index = NULL;
      g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
      g_autoptr(GArray) items = NULL;
      gint64 ts = 0;

      /* 4000 pairs: a 9 ns kernel and a 1 ns copy, or the other way. */
      for (guint i = 0; i < 8000; i++)
        {
          gboolean kernel = i % 2 == 0;
          gboolean kernel_long = kernel != (flip == 1);
          gint64 dur = kernel_long ? 9 : 1;

          g_string_append_printf (json, "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"cat\":\"%s\",\"name\":\"k\","
                                  "\"ts\":%" G_GINT64_FORMAT ".%03d,\"dur\":0.%03d}\n",
                                  i ? "," : "", kernel ? "kernel" : "gpu_memcpy",
                                  ts / 1000, (int) (ts % 1000), (int) dur);
          ts += dur;
        }
      g_string_append (json, "]}");
      bytes = g_string_free_to_bytes (g_steal_pointer (&json));
      trace = chrono_trace_load_bytes (bytes, "kinds.json", &error);
      g_assert_no_error (error);
      index = chrono_track_index_new (trace, 0);

      chrono_viewport_set_width_px (viewport, 100);
      chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace),
                                  chrono_trace_get_end_ns (trace));
      items = walk (index, 0, viewport, 2.0, NULL);
      g_assert_cmpuint (items->len, ==, 1);
      g_assert_cmpuint (g_array_index (items, ChronoRowItem, 0).n_spans, ==, 8000);
      g_assert_cmpint (g_array_index (items, ChronoRowItem, 0).kind, ==,
                       flip ? CHRONO_KIND_MEMCPY : CHRONO_KIND_KERNEL);
    }
}

static void
test_empty_and_counters (void)
{
  const char *json =
    "{\"traceEvents\":["
    "{\"ph\":\"C\",\"pid\":1,\"name\":\"mem\",\"ts\":10,\"args\":{\"bytes\":5}},"
    "{\"ph\":\"C\",\"pid\":1,\"name\":\"mem\",\"ts\":20,\"args\":{\"bytes\":-3.5}},"
    "{\"ph\":\"C\",\"pid\":1,\"name\":\"mem\",\"ts\":30,\"args\":{\"bytes\":12}}"
    "]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoTrace) trace = chrono_trace_load_bytes (bytes, "counter.json", &error);
  g_autoptr(ChronoTrackIndex) index = NULL;
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  double lo, hi;

  g_assert_no_error (error);
  g_assert_cmpuint (chrono_trace_get_n_tracks (trace), ==, 1);
  index = chrono_track_index_new (trace, 0);
  g_assert_cmpuint (chrono_track_index_get_n_rows (index), ==, 0);
  g_assert_true (chrono_track_index_get_value_range (index, &lo, &hi));
  g_assert_cmpfloat (lo, ==, -3.5);
  g_assert_cmpfloat (hi, ==, 12);
  chrono_viewport_set_width_px (viewport, 100);
  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace), chrono_trace_get_end_ns (trace));
  g_assert_false (chrono_track_index_hit_test (index, viewport, 10, 50, 5, NULL));
}

/* Groups of narrow spans, PITCH_PX apart at 1 px a microsecond, each
 * 0.5 px wide and starting a quarter pixel into a column. */
static ChronoTrace *
pitched_trace (double pitch_px,
               guint  n_groups)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\":[");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace;

  for (guint k = 0; k < n_groups; k++)
    g_string_append_printf (json, "%s{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"op\","
                            "\"ts\":%.3f,\"dur\":0.5}",
                            k > 0 ? "," : "", k * pitch_px + 0.25);
  g_string_append (json, "]}");
  bytes = g_string_free_to_bytes (g_steal_pointer (&json));
  trace = chrono_trace_load_bytes (bytes, "pitched.json", &error);
  g_assert_no_error (error);
  return trace;
}

/* Narrow spans join a run when, drawn out to whole pixels, nothing would
 * show between them; an empty pixel column keeps them apart. */
static void
test_runs_join_by_pixel (void)
{
  const struct {
    double pitch;
    guint  items;
  } cases[] = {
    { 1.5, 1 },    /* columns 0, 1-2, 3, 4-5 ...: touching */
    { 3.0, 100 },  /* columns 0, 3, 6 ...: two empty ones between */
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(ChronoTrace) trace = pitched_trace (cases[c].pitch, 100);
      g_autoptr(ChronoTrackIndex) index = chrono_track_index_new (trace, 0);
      g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
      g_autoptr(GArray) items = NULL;
      guint32 covered = 0;

      chrono_viewport_set_width_px (viewport, 1000);
      chrono_viewport_set_bounds (viewport, 0, 1000 * 1000);
      chrono_viewport_zoom_to_range (viewport, 0, 1000 * 1000);
      items = walk (index, 0, viewport, 2.0, NULL);
      g_assert_cmpuint (items->len, ==, cases[c].items);
      for (guint i = 0; i < items->len; i++)
        covered += g_array_index (items, ChronoRowItem, i).n_spans;
      g_assert_cmpuint (covered, ==, 100);
    }
}

/* Indexing every track at once, as the loading thread does, gives what
 * indexing each track alone gives; cancelled, it gives nothing. */
static void
test_new_all (void)
{
  g_autoptr(ChronoTrace) trace = random_trace (7, 500);
  g_autoptr(GPtrArray) indexes = chrono_track_index_new_all (trace, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  g_assert_nonnull (indexes);
  g_assert_cmpuint (indexes->len, ==, chrono_trace_get_n_tracks (trace));
  for (guint k = 0; k < indexes->len; k++)
    {
      ChronoTrackIndex *index = g_ptr_array_index (indexes, k);
      g_autoptr(ChronoTrackIndex) alone = chrono_track_index_new (trace, k);

      g_assert_cmpuint (chrono_track_index_get_track_number (index), ==, k);
      g_assert_cmpuint (chrono_track_index_get_n_rows (index), ==,
                        chrono_track_index_get_n_rows (alone));
      g_assert_cmpuint (chrono_track_index_get_memory_size (index), ==,
                        chrono_track_index_get_memory_size (alone));
      for (guint r = 0; r < chrono_track_index_get_n_rows (index); r++)
        {
          guint32 n, n_alone;
          const guint32 *spans = chrono_track_index_get_row_spans (index, r, &n);
          const guint32 *spans_alone = chrono_track_index_get_row_spans (alone, r, &n_alone);

          g_assert_cmpmem (spans, n * sizeof (guint32), spans_alone, n_alone * sizeof (guint32));
        }
    }

  g_cancellable_cancel (cancellable);
  g_assert_null (chrono_track_index_new_all (trace, cancellable));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/track-index/rows", test_rows);
  g_test_add_func ("/track-index/visible", test_visible);
  g_test_add_func ("/track-index/runs", test_runs);
  g_test_add_func ("/track-index/runs-join-by-pixel", test_runs_join_by_pixel);
  g_test_add_func ("/track-index/far-zoom-visits", test_far_zoom_visits);
  g_test_add_func ("/track-index/hit-test", test_hit_test);
  g_test_add_func ("/track-index/depth-cap", test_depth_cap);
  g_test_add_func ("/track-index/dominant-kind", test_dominant_kind);
  g_test_add_func ("/track-index/empty-and-counters", test_empty_and_counters);
  g_test_add_func ("/track-index/new-all", test_new_all);

  return g_test_run ();
}
