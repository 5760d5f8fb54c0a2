/* chrono-mcp-tools-spans.c: find_spans and span_details
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-format.h"
#include "chrono-mcp-name-index.h"
#include "chrono-mcp-page.h"
#include "chrono-mcp-scope.h"
#include "chrono-mcp-spans.h"

/* Longer args are cut, so that one value cannot fill a result. */
#define MAX_ARG_CHARS 2000

static const char find_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE ","
  "\"name\":{\"type\":\"string\",\"description\":\"Text the span's name contains, ignoring case; with * or ? a pattern for the whole name (aten::*mm*)\"},"
  "\"kind\":{\"type\":[\"string\",\"array\"],\"items\":{\"enum\":" CHRONO_MCP_KINDS "},"
  "\"description\":\"Only spans of this kind, or of these kinds: " "host_op, kernel, runtime, collective, memcpy, step…\"},"
  "\"track\":{\"type\":[\"integer\",\"string\"],\"description\":\"Only this track: its index, or text its name contains (\\\"stream 7\\\", \\\"thread 12\\\")\"},"
  "\"rank\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"Only this rank's trace\"},"
  "\"start_ns\":{\"type\":\"integer\",\"description\":\"Only spans that end after this time\"},"
  "\"end_ns\":{\"type\":\"integer\",\"description\":\"Only spans that start before this time\"},"
  "\"min_dur_ns\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"Only spans at least this long\"},"
  "\"sort\":{\"enum\":[\"start\",\"duration\"],\"description\":\"start: in time order (default); duration: longest first\"},"
  CHRONO_MCP_SCHEMA_PAGE_IN "}}";

static const char find_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"spans\",\"returned\",\"total\",\"truncated\"],\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"spans\":{\"type\":\"array\",\"items\":" CHRONO_MCP_SCHEMA_SPAN "},"
  CHRONO_MCP_SCHEMA_PAGE_OUT "}}";

static const char details_input[] =
  "{\"type\":\"object\",\"additionalProperties\":false,\"required\":[\"handle\",\"id\"],\"properties\":{"
  CHRONO_MCP_SCHEMA_HANDLE ","
  "\"id\":{\"type\":[\"integer\",\"string\"],\"description\":\"A span id: an integer from find_spans, critical_path, an earlier span_details, "
  "or a query's spans.id (and parent_id, device_work.launch_id, op_id, findings.span_id, critical_path.span_id)\"},"
  "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":500,\"description\":\"Most rows in each list (default 50)\"}}}";

#define RELATED_SCHEMA(extra) \
  "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"type\",\"span\"],\"properties\":{" \
  "\"type\":{\"type\":\"string\"}," extra "\"span\":" CHRONO_MCP_SCHEMA_SPAN "}}}"

static const char details_output[] =
  "{\"type\":\"object\",\"required\":[\"handle\",\"span\",\"args\",\"flows\",\"kernels\",\"enclosing\",\"dependencies\",\"truncated\"],\"properties\":{"
  "\"handle\":{\"type\":\"string\"},"
  "\"span\":" CHRONO_MCP_SCHEMA_SPAN ","
  "\"args\":{\"type\":\"object\",\"description\":\"the span's args as the profiler wrote them, values as text\"},"
  "\"flows\":" RELATED_SCHEMA ("\"direction\":{\"enum\":[\"in\",\"out\"]},") ","
  "\"launch\":" CHRONO_MCP_SCHEMA_SPAN ","
  "\"kernels\":{\"type\":\"array\",\"items\":" CHRONO_MCP_SCHEMA_SPAN ",\"description\":\"the device work this call launched\"},"
  "\"enclosing\":{\"type\":\"array\",\"items\":" CHRONO_MCP_SCHEMA_SPAN ",\"description\":\"the spans around it on the host (around its launch for device work), outermost first\"},"
  "\"dependencies\":" RELATED_SCHEMA ("\"direction\":{\"enum\":[\"before\",\"after\"]},\"on_critical_path\":{\"type\":\"boolean\"},") ","
  "\"on_critical_path\":{\"type\":\"boolean\"},"
  "\"truncated\":{\"type\":\"boolean\",\"description\":\"a list was cut at limit, or an arg at 2000 characters\"}}}";

/* --- find_spans ---------------------------------------------------------- */

typedef struct {
  guint32 trace, track, index;
  gint64  start, dur;
} Hit;

typedef gboolean (*HitBefore) (const Hit *a, const Hit *b);

static gboolean
by_start (const Hit *a,
          const Hit *b)
{
  if (a->start != b->start)
    return a->start < b->start;
  if (a->trace != b->trace)
    return a->trace < b->trace;
  if (a->track != b->track)
    return a->track < b->track;
  return a->index < b->index;
}

static gboolean
by_duration (const Hit *a,
             const Hit *b)
{
  if (a->dur != b->dur)
    return a->dur > b->dur;
  return by_start (a, b);
}

/* The best K hits: a heap with the worst kept on top. */
typedef struct {
  Hit      *hits;
  guint     n, k;
  HitBefore before;
} Best;

static void
best_offer (Best      *best,
            const Hit *hit)
{
  guint i;

  if (best->n == best->k)
    {
      if (!best->before (hit, &best->hits[0]))
        return;
      /* the hit replaces the worst and sinks below any worse child */
      i = 0;
      for (;;)
        {
          guint l = 2 * i + 1, r = l + 1, w = i;
          const Hit *worst = hit;

          if (l < best->n && best->before (worst, &best->hits[l]))
            worst = &best->hits[w = l];
          if (r < best->n && best->before (worst, &best->hits[r]))
            worst = &best->hits[w = r];
          if (w == i)
            break;
          best->hits[i] = best->hits[w];
          i = w;
        }
      best->hits[i] = *hit;
      return;
    }
  i = best->n++;
  while (i > 0 && best->before (&best->hits[(i - 1) / 2], hit))
    {
      best->hits[i] = best->hits[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  best->hits[i] = *hit;
}

static int
compare_hits_start (gconstpointer a,
                    gconstpointer b)
{
  return by_start (a, b) ? -1 : by_start (b, a) ? 1 : 0;
}

static int
compare_hits_duration (gconstpointer a,
                       gconstpointer b)
{
  return by_duration (a, b) ? -1 : by_duration (b, a) ? 1 : 0;
}

/* Whether NAME matches PATTERN, with * for any run and ? for any one
 * byte, ignoring ASCII case: greedy with one point to come back to, which
 * is enough for * (no need to come back further). */
static gboolean
glob_match (const char *pattern,
            const char *name)
{
  const char *star = NULL, *resume = NULL;

  while (*name)
    {
      if (*pattern == '*')
        {
          star = pattern++;
          resume = name;
        }
      else if (*pattern == '?' || g_ascii_tolower (*pattern) == g_ascii_tolower (*name))
        {
          pattern++;
          name++;
        }
      else if (star != NULL)
        {
          pattern = star + 1;
          name = ++resume;
        }
      else
        return FALSE;
    }
  while (*pattern == '*')
    pattern++;
  return *pattern == '\0';
}

/* Which string ids are names that match PATTERN. */
static guint8 *
match_names (ChronoTrace *trace,
             const char  *pattern)
{
  guint n = chrono_trace_get_n_strings (trace);
  guint8 *match = g_new0 (guint8, n);
  gboolean glob = strpbrk (pattern, "*?") != NULL;

  for (guint id = 0; id < n; id++)
    {
      const char *name = chrono_trace_get_string (trace, id);

      match[id] = glob ? glob_match (pattern, name) : strcasestr (name, pattern) != NULL;
    }
  return match;
}

static gboolean
parse_kinds (JsonObject  *args,
             guint32     *mask,
             GError     **error)
{
  JsonNode *kind = json_object_get_member (args, "kind");
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  *mask = G_MAXUINT32;
  if (kind == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (kind))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (kind)); i++)
      g_ptr_array_add (names, (gpointer) json_array_get_string_element (json_node_get_array (kind), i));
  else
    g_ptr_array_add (names, (gpointer) json_node_get_string (kind));
  *mask = 0;
  for (guint i = 0; i < names->len; i++)
    {
      ChronoKind k;

      if (!chrono_mcp_kind_parse (g_ptr_array_index (names, i), &k))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "argument “kind”: “%s” is not a kind; kinds are %s", (const char *) g_ptr_array_index (names, i),
                       CHRONO_MCP_KINDS);
          return FALSE;
        }
      *mask |= 1u << k;
    }
  return TRUE;
}

/* Whether track T of TRACE is the one the "track" argument names. */
static gboolean
track_wanted (ChronoTrace *trace,
              guint        t,
              JsonObject  *args)
{
  JsonNode *want = json_object_get_member (args, "track");
  gint64 index;

  if (want == NULL)
    return TRUE;
  if (chrono_mcp_arg_int (args, "track", &index))
    return index == t;
  return strcasestr (chrono_trace_get_string (trace, chrono_trace_get_track (trace, t)->display_name),
                     json_node_get_string (want)) != NULL;
}

static inline gboolean
span_matches (const ChronoTrack *track,
              guint32            i,
              guint32            kinds,
              const guint8      *names,
              gint64             min_dur,
              gint64             w_start)
{
  gint64 dur;

  if (!(kinds & (1u << track->kind[i])) || (names && !names[chrono_track_get_name (track, i)]))
    return FALSE;
  dur = chrono_track_get_dur (track, i);
  return dur >= min_dur &&
         (track->start[i] + dur > w_start || (dur == 0 && track->start[i] >= w_start));
}

/* The spans FROM to TO of TRACK that match. */
static guint64
count_matches (const ChronoTrack *track,
               guint32            from,
               guint32            to,
               guint32            kinds,
               const guint8      *names,
               gint64             min_dur,
               gint64             w_start)
{
  guint64 n = 0;

  if (kinds == G_MAXUINT32 && names == NULL && min_dur <= 0 && w_start == G_MININT64)
    return to - from;
  for (guint32 i = from; i < to; i++)
    n += span_matches (track, i, kinds, names, min_dur, w_start);
  return n;
}

/* One query's state over the traces. */
typedef struct {
  Best     *best;
  gboolean  has_after;
  Hit       after;      /* the cursor: only hits past it */
  guint64   total;      /* matches */
  guint64   beyond;     /* matches past the cursor */
} Search;

static inline void
offer (Search            *search,
       guint              trace,
       guint              t,
       const ChronoTrack *track,
       guint32            i)
{
  Hit hit = { trace, t, i, track->start[i], chrono_track_get_dur (track, i) };

  search->total++;
  if (search->has_after && !search->best->before (&search->after, &hit))
    return;
  search->beyond++;
  best_offer (search->best, &hit);
}

static gboolean
parse_position (ChronoMcpEntry  *entry,
                const char      *position,
                Hit             *after,
                GError         **error)
{
  g_autoptr(JsonNode) id = json_node_init_string (json_node_alloc (), position);
  ChronoSpanRef ref;
  guint trace;
  const ChronoTrack *track;

  if (!chrono_mcp_span_parse_id (entry, id, &trace, &ref, error))
    return FALSE;
  track = chrono_trace_get_track (g_ptr_array_index (entry->traces, trace), ref.track);
  after->trace = trace;
  after->track = ref.track;
  after->index = ref.index;
  after->start = track->start[ref.index];
  after->dur = chrono_track_get_dur (track, ref.index);
  return TRUE;
}

static JsonNode *
find_spans (ChronoMcpContext  *ctx,
            JsonObject        *args,
            GString           *text,
            GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(ChronoMcpPage) page = NULL;
  const char *pattern = chrono_mcp_arg_string (args, "name");
  gboolean duration = g_strcmp0 (chrono_mcp_arg_string (args, "sort"), "duration") == 0;
  gint64 min_dur = chrono_mcp_arg_int_or (args, "min_dur_ns", 0);
  gint64 w_start, w_end;
  guint32 kinds;
  Hit after = { 0 };
  gboolean has_after;
  Best best_store = { 0 }, *best = &best_store;
  Search search = { 0 };
  guint64 total = 0, beyond = 0;
  g_autofree char *next = NULL;
  JsonObject *out;
  JsonNode *result;

  if (entry == NULL || !parse_kinds (args, &kinds, error) ||
      !chrono_mcp_scope_init (&scope, entry, args, error) ||
      (page = chrono_mcp_page_new (ctx, args, error)) == NULL)
    return NULL;
  has_after = chrono_mcp_page_get_position (page) != NULL;
  if (has_after && !parse_position (entry, chrono_mcp_page_get_position (page), &after, error))
    return NULL;
  w_start = scope.options.range_end_ns > scope.options.range_start_ns ? scope.options.range_start_ns : G_MININT64;
  w_end = scope.options.range_end_ns > scope.options.range_start_ns ? scope.options.range_end_ns : G_MAXINT64;

  best_store.k = chrono_mcp_page_get_limit (page);
  best_store.hits = g_new (Hit, best_store.k);
  best_store.before = duration ? by_duration : by_start;
  search.best = best;
  search.has_after = has_after;
  search.after = after;

  for (guint n = 0; n < scope.n_indices; n++)
    {
      guint ti = scope.indices[n];
      ChronoTrace *trace = g_ptr_array_index (entry->traces, ti);
      guint n_tracks = chrono_trace_get_n_tracks (trace);
      g_autofree guint8 *names = pattern ? match_names (trace, pattern) : NULL;
      g_autofree gboolean *wanted = g_new (gboolean, n_tracks);
      guint64 named = 0, spans = 0;

      for (guint t = 0; t < n_tracks; t++)
        {
          wanted[t] = track_wanted (trace, t, args);
          spans += chrono_trace_get_track (trace, t)->n_spans;
        }
      if (names != NULL)
        {
          ChronoMcpNameIndex *index = g_ptr_array_index (entry->name_indexes, ti);
          guint32 count;

          for (guint id = 0; id < chrono_trace_get_n_strings (trace); id++)
            if (names[id])
              {
                chrono_mcp_name_index_get (index, id, &count);
                named += count;
              }
          /* few spans have a matching name: visit those alone */
          if (named < spans / 8)
            {
              for (guint id = 0; id < chrono_trace_get_n_strings (trace); id++)
                {
                  const ChronoSpanRef *refs = names[id] ? chrono_mcp_name_index_get (index, id, &count) : NULL;

                  for (guint32 r = 0; refs && r < count; r++)
                    {
                      const ChronoTrack *track = chrono_trace_get_track (trace, refs[r].track);

                      if (wanted[refs[r].track] && track->start[refs[r].index] < w_end &&
                          span_matches (track, refs[r].index, kinds, NULL, min_dur, w_start))
                        offer (&search, ti, refs[r].track, track, refs[r].index);
                    }
                }
              continue;
            }
        }

      for (guint t = 0; t < n_tracks; t++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, t);
          guint32 lo = 0, hi = track->n_spans;

          if (track->n_spans == 0 || !wanted[t])
            continue;
          /* spans are sorted by start: those starting at or after the
           * window's end are out */
          while (lo < hi)
            {
              guint32 mid = lo + (hi - lo) / 2;

              if (track->start[mid] < w_end)
                lo = mid + 1;
              else
                hi = mid;
            }
          for (guint32 i = 0; i < lo; i++)
            {
              /* In time order, once the page is full, a span that starts
               * after the last one kept cannot enter, nor can any after it
               * on this track: they are only counted. */
              if (!duration && best->n == best->k && track->start[i] > best->hits[0].start)
                {
                  guint64 rest = count_matches (track, i, lo, kinds, names, min_dur, w_start);

                  search.total += rest;
                  search.beyond += rest;
                  break;
                }
              if (span_matches (track, i, kinds, names, min_dur, w_start))
                offer (&search, ti, t, track, i);
            }
        }
    }
  total = search.total;
  beyond = search.beyond;

  qsort (best->hits, best->n, sizeof (Hit), duration ? compare_hits_duration : compare_hits_start);
  for (guint i = 0; i < best->n; i++)
    {
      ChronoSpanRef ref = { best->hits[i].track, best->hits[i].index };

      if (!chrono_mcp_page_add (page, chrono_mcp_span_row (entry, best->hits[i].trace, ref)))
        break;
    }
  if (beyond > chrono_mcp_page_get_n_rows (page))
    {
      const Hit *last = &best->hits[chrono_mcp_page_get_n_rows (page) - 1];
      ChronoSpanRef ref = { last->track, last->index };

      next = g_strdup_printf ("%" G_GINT64_FORMAT, chrono_mcp_span_id (entry, last->trace, ref));
    }

  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  g_string_append_printf (text, "%" G_GUINT64_FORMAT " spans match", total);
  if (best->n > 0)
    {
      g_autofree char *d = chrono_format_duration (best->hits[0].dur);
      ChronoSpanRef ref = { best->hits[0].track, best->hits[0].index };
      gint64 id = chrono_mcp_span_id (entry, best->hits[0].trace, ref);
      ChronoTrace *trace = g_ptr_array_index (entry->traces, best->hits[0].trace);
      g_autofree char *name = chrono_format_short_name (
        chrono_trace_get_string (trace, chrono_track_get_name (chrono_trace_get_track (trace, ref.track), ref.index)),
        CHRONO_SHORT_NAME_WIDTH);

      g_string_append_printf (text, "; %s: %" G_GINT64_FORMAT " %s (%s, %s)", duration ? "longest" : "first", id, name,
                              d, chrono_kind_to_string (chrono_trace_get_track (trace, ref.track)->kind[ref.index]));
    }
  g_string_append_c (text, '.');
  chrono_mcp_page_finish (page, out, "spans", total, next, text);
  g_free (best->hits);
  return result;
}

/* --- span_details -------------------------------------------------------- */

static const char *
flow_type_to_string (ChronoFlowType type)
{
  switch (type)
    {
    case CHRONO_FLOW_LAUNCH: return "launch";
    case CHRONO_FLOW_DEPENDENCY: return "dependency";
    case CHRONO_FLOW_SEMAPHORE: return "semaphore";
    case CHRONO_FLOW_V1:
    case CHRONO_FLOW_V2:
    default: return "flow";
    }
}

static gboolean
same_span (ChronoSpanRef a,
           ChronoSpanRef b)
{
  return a.track == b.track && a.index == b.index;
}

/* The spans around REF on its host thread, innermost first. */
static void
add_ancestors (ChronoMcpEntry *entry,
               guint           trace,
               ChronoSpanRef   ref,
               GPtrArray      *rows)
{
  const ChronoTrack *track = chrono_trace_get_track (g_ptr_array_index (entry->traces, trace), ref.track);
  gint want = (gint) track->depth[ref.index] - 1;
  gint64 start = track->start[ref.index], end = chrono_track_get_end (track, ref.index);

  if (track->type != CHRONO_TRACK_THREAD)
    return;
  for (guint32 j = ref.index; j-- > 0 && want >= 0;)
    if (track->lane[j] == track->lane[ref.index] && track->depth[j] == want &&
        track->start[j] <= start && chrono_track_get_end (track, j) >= end)
      {
        ChronoSpanRef up = { ref.track, j };

        g_ptr_array_add (rows, chrono_mcp_span_row (entry, trace, up));
        want--;
      }
}

static void
related (JsonArray  *list,
         const char *type,
         const char *dir_member,
         const char *direction,
         JsonNode   *span)
{
  JsonObject *row = json_object_new ();

  json_object_set_string_member (row, "type", type);
  json_object_set_string_member (row, dir_member, direction);
  json_object_set_member (row, "span", span);
  json_array_add_object_element (list, row);
}

static JsonNode *
span_details (ChronoMcpContext  *ctx,
              JsonObject        *args,
              GString           *text,
              GError           **error)
{
  ChronoMcpEntry *entry = chrono_mcp_arg_entry (ctx, args, error);
  guint limit = chrono_mcp_arg_int_or (args, "limit", CHRONO_MCP_DEFAULT_ROWS);
  g_autoptr(JsonObject) no_args = json_object_new ();
  g_auto(ChronoMcpScope) scope = { 0 };
  g_autoptr(GPtrArray) ancestors = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(GPtrArray) arg_list = NULL;
  g_autoptr(ChronoSubgraph) graph = NULL;
  ChronoMcpAnalysis *a;
  ChronoSpanRef ref, launch = { 0 };
  gboolean has_launch = FALSE, truncated = FALSE, on_path = FALSE;
  JsonArray *flows, *kernels, *deps, *enclosing;
  JsonObject *out, *args_out;
  JsonNode *result;
  ChronoTrace *trace;
  const ChronoTrack *track;
  guint ti;

  if (entry == NULL || !chrono_mcp_span_parse_id (entry, json_object_get_member (args, "id"), &ti, &ref, error) ||
      !chrono_mcp_scope_init (&scope, entry, no_args, error) ||
      (a = chrono_mcp_entry_get_analysis (entry, scope.key, scope.indices, scope.n_indices, &scope.options, error)) == NULL)
    return NULL;
  trace = g_ptr_array_index (entry->traces, ti);
  track = chrono_trace_get_track (trace, ref.track);

  result = json_node_new (JSON_NODE_OBJECT);
  out = json_object_new ();
  json_node_take_object (result, out);
  json_object_set_string_member (out, "handle", entry->handle);
  json_object_set_member (out, "span", chrono_mcp_span_row (entry, ti, ref));

  args_out = json_object_new ();
  arg_list = chrono_trace_dup_args (trace, chrono_track_get_args (track, ref.index));
  for (guint i = 0; i < arg_list->len; i++)
    {
      const ChronoArg *arg = g_ptr_array_index (arg_list, i);

      if (g_utf8_strlen (arg->text, -1) > MAX_ARG_CHARS)
        {
          g_autofree char *cut = g_utf8_substring (arg->text, 0, MAX_ARG_CHARS);
          g_autofree char *marked = g_strconcat (cut, "…", NULL);

          json_object_set_string_member (args_out, arg->key, marked);
          truncated = TRUE;
        }
      else
        json_object_set_string_member (args_out, arg->key, arg->text);
    }
  json_object_set_object_member (out, "args", args_out);

  flows = json_array_new ();
  kernels = json_array_new ();
  for (guint f = 0; f < chrono_trace_get_n_flows (trace); f++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, f);
      gboolean out_of = same_span (flow->from, ref), into = same_span (flow->to, ref);

      if (!out_of && !into)
        continue;
      if (flow->type == CHRONO_FLOW_LAUNCH && into)
        {
          launch = flow->from;
          has_launch = TRUE;
        }
      if (flow->type == CHRONO_FLOW_LAUNCH && out_of)
        {
          if (json_array_get_length (kernels) < limit)
            json_array_add_element (kernels, chrono_mcp_span_row (entry, ti, flow->to));
          else
            truncated = TRUE;
        }
      if (json_array_get_length (flows) < limit)
        related (flows, flow_type_to_string (flow->type), "direction", out_of ? "out" : "in",
                 chrono_mcp_span_row (entry, ti, out_of ? flow->to : flow->from));
      else
        truncated = TRUE;
    }
  json_object_set_array_member (out, "flows", flows);
  json_object_set_array_member (out, "kernels", kernels);
  if (has_launch)
    json_object_set_member (out, "launch", chrono_mcp_span_row (entry, ti, launch));

  add_ancestors (entry, ti, has_launch ? launch : ref, ancestors);
  enclosing = json_array_new ();
  for (guint i = ancestors->len; i-- > 0;)
    json_array_add_element (enclosing, json_node_ref (g_ptr_array_index (ancestors, i)));
  json_object_set_array_member (out, "enclosing", enclosing);

  deps = json_array_new ();
  {
    ChronoNodeRef centre = { ti, ref };

    graph = chrono_analysis_dup_neighbourhood (a->analysis, centre, 1, limit + 1);
  }
  if (graph != NULL && graph->nodes->len > 0)
    on_path = g_array_index (graph->nodes, ChronoGraphNode, 0).on_critical_path;
  for (guint e = 0; graph != NULL && e < graph->edges->len; e++)
    {
      const ChronoGraphEdge *edge = &g_array_index (graph->edges, ChronoGraphEdge, e);
      guint other;
      const ChronoGraphNode *node;
      JsonNode *span;

      if (edge->from != 0 && edge->to != 0)
        continue;
      if (json_array_get_length (deps) >= limit)
        {
          truncated = TRUE;
          break;
        }
      other = edge->from == 0 ? edge->to : edge->from;
      node = &g_array_index (graph->nodes, ChronoGraphNode, other);
      span = chrono_mcp_span_row (entry, scope.indices[node->ref.trace], node->ref.span);
      related (deps, chrono_edge_type_to_string (edge->type), "direction", edge->from == 0 ? "after" : "before", span);
      json_object_set_boolean_member (json_array_get_object_element (deps, json_array_get_length (deps) - 1),
                                      "on_critical_path", node->on_critical_path);
    }
  json_object_set_array_member (out, "dependencies", deps);
  json_object_set_boolean_member (out, "on_critical_path", on_path);
  json_object_set_boolean_member (out, "truncated", truncated);

  {
    g_autofree char *d = chrono_format_duration (chrono_track_get_dur (track, ref.index));

    g_string_append_printf (text, "%s (%s, %s) on %s: %u args, %u flows, %u kernels launched, %u enclosing spans, "
                            "%u dependencies%s.",
                            chrono_trace_get_string (trace, chrono_track_get_name (track, ref.index)),
                            chrono_kind_to_string (track->kind[ref.index]), d,
                            chrono_trace_get_string (trace, track->display_name), arg_list->len,
                            json_array_get_length (flows), json_array_get_length (kernels),
                            json_array_get_length (enclosing), json_array_get_length (deps),
                            on_path ? "; on the critical path" : "");
    if (has_launch)
      g_string_append_printf (text, " Launched by %s.",
                              chrono_trace_get_string (trace, chrono_track_get_name (chrono_trace_get_track (trace, launch.track), launch.index)));
    if (truncated)
      g_string_append_printf (text, " Some lists were cut at %u rows (raise limit) or args at %d characters.", limit, MAX_ARG_CHARS);
  }
  return result;
}

static const ChronoMcpTool tools[] = {
  { "find_spans", "Find spans",
    "Searches the spans of an opened trace by name (text or a pattern), kind, track, rank, time window "
    "and minimum duration, in time order or longest first. Each span comes with its id, an integer: the one "
    "the query tool's spans.id gives it, to pass to span_details. "
    "Paged; total says how many match.",
    find_input, find_output, find_spans },
  { "span_details", "Explain one span",
    "Everything about one span: its args, the flows into and out of it, for device work the call that "
    "launched it and for a launch call the kernels it launched, the host spans enclosing it (operators, "
    "Python, annotations), and the spans it depends on or that depend on it in the dependency graph, "
    "with whether they lie on a critical path. Takes the span's integer id from find_spans, critical_path "
    "or the query tool (spans.id, device_work.launch_id, findings.span_id...); the older form 0:12:345 is "
    "read too. The first call on a handle runs its analysis for the dependency graph.",
    details_input, details_output, span_details },
};

const ChronoMcpTool *
chrono_mcp_span_tools (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tools);
  return tools;
}
