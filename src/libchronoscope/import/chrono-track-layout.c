/* chrono-track-layout.c: B and E events paired into slices, and a sorted
 * track's spans nested into depths and lanes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-kineto.h"
#include "chrono-track-builder-private.h"

/* Pathological inputs (thousands of partly overlapping spans) must not
 * make layout quadratic: past this many lanes, spans share the last one. */
#define MAX_LANES 1024
#define MAX_DEPTH G_MAXUINT16

/* Gives the bind FIRST, and the binds after it of the same slice, their
 * span. */
static void
set_bind_span (GArray  *v2_binds,
               guint32  first,
               guint32  span)
{
  g_array_index (v2_binds, ChronoV2Bind, first).span = span;
  for (guint32 i = first + 1;
       i < v2_binds->len && g_array_index (v2_binds, ChronoV2Bind, i).span == CHRONO_BIND_SAME_SPAN; i++)
    g_array_index (v2_binds, ChronoV2Bind, i).span = span;
}

guint64
chrono_track_builder_pair_marks (ChronoTrace        *trace,
                                 ChronoTrackBuilder *b,
                                 GArray             *v2_binds)
{
  ChronoMark *marks = (ChronoMark *) b->marks->data;
  guint32 n = b->marks->len;
  g_autofree gint64 *ts = g_new (gint64, MAX (n, 1));
  g_autofree gint64 *begin_first = g_new (gint64, MAX (n, 1));
  g_autofree guint32 *order = NULL;
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint64 stray = 0;

  /* At equal times an E closes before a B opens. */
  for (guint32 i = 0; i < n; i++)
    {
      ts[i] = marks[i].ts;
      begin_first[i] = marks[i].is_end ? 1 : 0;
    }
  order = chrono_track_sort_order (ts, begin_first, n);

  for (guint32 k = 0; k < n; k++)
    {
      ChronoMark *m = &marks[order ? order[k] : k];

      if (!m->is_end)
        {
          guint32 id = k;
          g_array_append_val (stack, id);
          continue;
        }
      if (stack->len == 0)
        {
          stray++;
          continue;
        }
      {
        guint32 top = g_array_index (stack, guint32, stack->len - 1);
        ChronoMark *open = &marks[order ? order[top] : top];
        gboolean on_device;
        guint8 kind;
        guint32 index;
        const char *cat = chrono_string_table_get (trace->strings, open->cat);
        const char *name = chrono_string_table_get (trace->strings, open->name);

        g_array_set_size (stack, stack->len - 1);
        kind = chrono_kineto_classify (cat, strlen (cat), name, strlen (name), &on_device);
        /* The E's args merge into the slice: keep whichever has some. */
        index = chrono_track_builder_add_span (b, open->ts, m->ts - open->ts, open->name, open->cat,
                                               open->args_off != CHRONO_NO_ARGS ? open->args_off : m->args_off,
                                               kind, 0);
        if (on_device)
          b->device_votes++;
        else
          b->host_votes++;
        if (open->bind != G_MAXUINT32)
          set_bind_span (v2_binds, open->bind, index);
      }
    }

  /* Slices still open run to the end of the trace. */
  for (guint32 s = 0; s < stack->len; s++)
    {
      guint32 k = g_array_index (stack, guint32, s);
      ChronoMark *open = &marks[order ? order[k] : k];
      const char *cat = chrono_string_table_get (trace->strings, open->cat);
      const char *name = chrono_string_table_get (trace->strings, open->name);
      gboolean on_device;
      guint8 kind = chrono_kineto_classify (cat, strlen (cat), name, strlen (name), &on_device);
      guint32 index = chrono_track_builder_add_span (b, open->ts, -1, open->name, open->cat,
                                                     open->args_off, kind, 0);

      if (open->bind != G_MAXUINT32)
        set_bind_span (v2_binds, open->bind, index);
    }

  g_clear_pointer (&b->marks, g_array_unref);
  return stray;
}

void
chrono_track_builder_lay_out (ChronoTrackBuilder *b)
{
  ChronoTrack *t = &b->track;
  guint32 n = t->n_spans;
  GArray *lanes[MAX_LANES];
  guint n_lanes = 0;
  guint16 max_depth = 0;

  t->depth = g_new (guint16, MAX (n, 1));
  t->lane = g_new (guint16, MAX (n, 1));

  for (guint32 i = 0; i < n; i++)
    {
      gint64 start = t->start[i];
      gint64 end = start + b->dur[i];
      guint lane;

      for (lane = 0; ; lane++)
        {
          GArray *stack;
          gint64 *ends;

          if (lane == n_lanes)
            lanes[n_lanes++] = g_array_new (FALSE, FALSE, sizeof (gint64));
          stack = lanes[lane];
          ends = (gint64 *) stack->data;
          while (stack->len > 0 && ends[stack->len - 1] <= start)
            g_array_set_size (stack, stack->len - 1);
          if (stack->len == 0 || ends[stack->len - 1] >= end || lane == MAX_LANES - 1)
            break;
        }

      {
        GArray *stack = lanes[lane];
        guint depth = MIN (stack->len, MAX_DEPTH);

        g_array_append_val (stack, end);
        t->depth[i] = depth;
        t->lane[i] = lane;
        max_depth = MAX (max_depth, depth);
      }
    }

  for (guint l = 0; l < n_lanes; l++)
    g_array_unref (lanes[l]);
  t->n_lanes = MAX (n_lanes, n > 0 ? 1 : 0);
  t->max_depth = max_depth;
}
