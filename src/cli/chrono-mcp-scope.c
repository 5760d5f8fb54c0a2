/* chrono-mcp-scope.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-cli-load.h"
#include "chrono-mcp-scope.h"

static gboolean
pick_rank (ChronoMcpScope  *scope,
           ChronoMcpEntry  *entry,
           gint64           rank,
           GError         **error)
{
  gboolean ranked = FALSE;
  g_autoptr(GString) have = g_string_new (NULL);

  for (guint i = 0; i < entry->traces->len; i++)
    ranked |= chrono_trace_get_rank (g_ptr_array_index (entry->traces, i)) >= 0;
  for (guint i = 0; i < entry->traces->len; i++)
    {
      gint r = ranked ? chrono_trace_get_rank (g_ptr_array_index (entry->traces, i)) : (gint) i;

      if (r == rank)
        {
          scope->indices[0] = i;
          scope->n_indices = 1;
          return TRUE;
        }
      g_string_append_printf (have, "%s%d", have->len ? ", " : "", r);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "rank %" G_GINT64_FORMAT " is not among the traces of handle “%s”: it has %s %s",
               rank, entry->handle, entry->traces->len == 1 ? "rank" : "ranks", have->str);
  return FALSE;
}

gboolean
chrono_mcp_step_matches (const char *name,
                         const char *wanted)
{
  gboolean number = wanted[0] != '\0' && strspn (wanted, "0123456789") == strlen (wanted);
  const char *hash;

  if (!number)
    return strcmp (name, wanted) == 0;
  hash = strrchr (name, '#');
  return hash != NULL && strcmp (hash + 1, wanted) == 0;
}

static gboolean
find_step (ChronoMcpScope  *scope,
           ChronoMcpEntry  *entry,
           const char      *wanted,
           gint64          *start,
           gint64          *end,
           GError         **error)
{
  g_autoptr(GPtrArray) seen = g_ptr_array_new ();
  gboolean found = FALSE;

  *start = G_MAXINT64;
  *end = G_MININT64;
  for (guint n = 0; n < scope->n_indices; n++)
    {
      ChronoTrace *trace = g_ptr_array_index (entry->traces, scope->indices[n]);

      for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);

          for (guint32 i = 0; i < track->n_spans; i++)
            {
              const char *name;

              if (track->kind[i] != CHRONO_KIND_STEP)
                continue;
              name = chrono_trace_get_string (trace, chrono_track_get_name (track, i));
              if (chrono_mcp_step_matches (name, wanted))
                {
                  found = TRUE;
                  *start = MIN (*start, track->start[i]);
                  *end = MAX (*end, chrono_track_get_end (track, i));
                  if (scope->step == NULL)
                    scope->step = g_strdup (name);
                }
              else if (seen->len < 12 && !g_ptr_array_find_with_equal_func (seen, name, g_str_equal, NULL))
                g_ptr_array_add (seen, (gpointer) name);
            }
        }
    }
  if (!found)
    {
      g_autoptr(GString) list = g_string_new (NULL);

      for (guint i = 0; i < seen->len; i++)
        g_string_append_printf (list, "%s%s", i ? ", " : "", (const char *) g_ptr_array_index (seen, i));
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "no profiler step “%s” in handle “%s”: %s%s", wanted, entry->handle,
                   seen->len ? "it has " : "the trace marks no steps (ProfilerStep#N spans); use start_ns and end_ns",
                   list->str);
      return FALSE;
    }
  return TRUE;
}

gboolean
chrono_mcp_scope_init (ChronoMcpScope  *scope,
                       ChronoMcpEntry  *entry,
                       JsonObject      *args,
                       GError         **error)
{
  gint64 rank, start = G_MININT64, end = G_MAXINT64, t_start = G_MAXINT64, t_end = G_MININT64;
  gboolean has_start, has_end;
  g_autofree char *wanted = chrono_mcp_step_arg (args);
  g_autoptr(GString) key = g_string_new (NULL);

  memset (scope, 0, sizeof *scope);
  chrono_analysis_options_init (&scope->options);
  chrono_cli_read_thresholds (&scope->options.thresholds);
  scope->indices = g_new (guint, entry->traces->len);
  for (guint i = 0; i < entry->traces->len; i++)
    scope->indices[i] = i;
  scope->n_indices = entry->traces->len;

  if (chrono_mcp_arg_int (args, "rank", &rank) && !pick_rank (scope, entry, rank, error))
    return FALSE;
  for (guint n = 0; n < scope->n_indices; n++)
    {
      ChronoTrace *trace = g_ptr_array_index (entry->traces, scope->indices[n]);

      t_start = MIN (t_start, chrono_trace_get_start_ns (trace));
      t_end = MAX (t_end, chrono_trace_get_end_ns (trace));
    }

  has_start = chrono_mcp_arg_int (args, "start_ns", &start);
  has_end = chrono_mcp_arg_int (args, "end_ns", &end);
  if (wanted != NULL)
    {
      gint64 s_start, s_end;

      if (!find_step (scope, entry, wanted, &s_start, &s_end, error))
        return FALSE;
      start = has_start ? MAX (start, s_start) : s_start;
      end = has_end ? MIN (end, s_end) : s_end;
      has_start = has_end = TRUE;
    }
  if (has_start || has_end)
    {
      if (!has_start)
        start = t_start;
      if (!has_end)
        end = t_end;
      if (end <= start)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "the window %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns is empty: end_ns must be above "
                       "start_ns (the trace runs from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT ")",
                       start, end, t_start, t_end);
          return FALSE;
        }
      scope->options.range_start_ns = start;
      scope->options.range_end_ns = end;
    }

  for (guint n = 0; n < scope->n_indices; n++)
    g_string_append_printf (key, "%s%u", n ? "," : "traces ", scope->indices[n]);
  if (has_start || has_end)
    g_string_append_printf (key, " from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT, start, end);
  scope->key = g_string_free (g_steal_pointer (&key), FALSE);
  return TRUE;
}

char *
chrono_mcp_step_arg (JsonObject *args)
{
  JsonNode *step = json_object_get_member (args, "step");
  gint64 number;

  if (step == NULL)
    return NULL;
  if (chrono_mcp_arg_int (args, "step", &number))
    return g_strdup_printf ("%" G_GINT64_FORMAT, number);
  return g_strdup (json_node_get_string (step));
}

void
chrono_mcp_scope_clear (ChronoMcpScope *scope)
{
  g_clear_pointer (&scope->indices, g_free);
  g_clear_pointer (&scope->step, g_free);
  g_clear_pointer (&scope->key, g_free);
}

gboolean
chrono_mcp_scope_meets (const ChronoMcpScope *scope,
                        gint64                start,
                        gint64                end)
{
  if (scope->options.range_end_ns <= scope->options.range_start_ns)
    return TRUE;
  return start < scope->options.range_end_ns &&
         (end > scope->options.range_start_ns || (start == end && start >= scope->options.range_start_ns));
}
