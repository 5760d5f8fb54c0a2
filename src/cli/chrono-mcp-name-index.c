/* chrono-mcp-name-index.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "chrono-mcp-name-index.h"

struct _ChronoMcpNameIndex {
  guint          n_names;
  guint64       *starts;   /* n_names + 1: where each name's spans begin in refs */
  ChronoSpanRef *refs;
  guint64        n_refs;
};

ChronoMcpNameIndex *
chrono_mcp_name_index_new (ChronoTrace *trace)
{
  ChronoMcpNameIndex *index = g_new0 (ChronoMcpNameIndex, 1);
  g_autofree guint64 *fill = NULL;

  index->n_names = chrono_trace_get_n_strings (trace);
  index->starts = g_new0 (guint64, index->n_names + 1);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        index->starts[chrono_track_get_name (track, i) + 1]++;
    }
  for (guint n = 0; n < index->n_names; n++)
    index->starts[n + 1] += index->starts[n];
  index->n_refs = index->starts[index->n_names];
  index->refs = g_new (ChronoSpanRef, MAX (index->n_refs, 1));
  fill = g_memdup2 (index->starts, sizeof (guint64) * index->n_names);
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          ChronoSpanRef ref = { t, i };

          index->refs[fill[chrono_track_get_name (track, i)]++] = ref;
        }
    }
  return index;
}

void
chrono_mcp_name_index_free (ChronoMcpNameIndex *index)
{
  g_free (index->starts);
  g_free (index->refs);
  g_free (index);
}

gsize
chrono_mcp_name_index_bytes (ChronoMcpNameIndex *index)
{
  return (index->n_names + 1) * sizeof (guint64) + index->n_refs * sizeof (ChronoSpanRef);
}

const ChronoSpanRef *
chrono_mcp_name_index_get (ChronoMcpNameIndex *index,
                           guint32             name_id,
                           guint32            *n_spans)
{
  if (name_id >= index->n_names)
    {
      *n_spans = 0;
      return NULL;
    }
  *n_spans = index->starts[name_id + 1] - index->starts[name_id];
  return index->refs + index->starts[name_id];
}
