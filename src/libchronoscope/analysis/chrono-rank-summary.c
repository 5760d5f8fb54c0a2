/* chrono-rank-summary.c: what a job analysis needs from one rank
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "chrono-analysis-private.h"
#include "chrono-json-reader.h"
#include "chrono-json-util.h"
#include "chrono-rank-summary.h"

static void
step_clear (ChronoSummaryStep *s)
{
  g_free (s->name);
}

static void
collective_clear (ChronoSummaryCollective *c)
{
  g_free (c->name);
  g_free (c->collective);
  g_free (c->group);
  g_free (c->dtype);
}

static void
finding_clear (ChronoSummaryFinding *f)
{
  g_free (f->rule);
  g_free (f->severity);
  g_free (f->title);
}

static void
limitation_clear (ChronoSummaryLimitation *l)
{
  g_free (l->id);
  g_free (l->message);
}

ChronoRankSummary *
chrono_rank_summary_new (void)
{
  ChronoRankSummary *self = g_new0 (ChronoRankSummary, 1);

  self->rank = -1;
  self->world_size = -1;
  self->steps = g_array_new (FALSE, TRUE, sizeof (ChronoSummaryStep));
  g_array_set_clear_func (self->steps, (GDestroyNotify) step_clear);
  self->ledger = g_array_new (FALSE, TRUE, sizeof (ChronoSummaryLedger));
  self->collectives = g_array_new (FALSE, TRUE, sizeof (ChronoSummaryCollective));
  g_array_set_clear_func (self->collectives, (GDestroyNotify) collective_clear);
  self->findings = g_array_new (FALSE, TRUE, sizeof (ChronoSummaryFinding));
  g_array_set_clear_func (self->findings, (GDestroyNotify) finding_clear);
  self->limitations = g_array_new (FALSE, TRUE, sizeof (ChronoSummaryLimitation));
  g_array_set_clear_func (self->limitations, (GDestroyNotify) limitation_clear);
  return self;
}

void
chrono_rank_summary_free (ChronoRankSummary *self)
{
  if (self == NULL)
    return;
  g_free (self->path);
  g_array_unref (self->steps);
  g_array_unref (self->ledger);
  g_array_unref (self->collectives);
  g_array_unref (self->findings);
  g_array_unref (self->limitations);
  g_free (self);
}

/* -------------------------------------------------------------------- */
/* From a trace                                                         */

/* Bytes per element of the dtypes record_param_comms writes; 0 unknown. */
static gint64
dtype_size (const char *dtype)
{
  static const struct { const char *name; gint64 size; } sizes[] = {
    { "Float", 4 }, { "float", 4 }, { "Float32", 4 }, { "Int", 4 }, { "int", 4 }, { "UInt32", 4 },
    { "BFloat16", 2 }, { "Half", 2 }, { "Float16", 2 }, { "Short", 2 },
    { "Double", 8 }, { "Long", 8 }, { "ComplexFloat", 8 }, { "UInt64", 8 },
    { "Byte", 1 }, { "Char", 1 }, { "Bool", 1 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 },
  };

  for (guint i = 0; dtype && i < G_N_ELEMENTS (sizes); i++)
    if (strcmp (dtype, sizes[i].name) == 0)
      return sizes[i].size;
  return 0;
}

static char *
member_text (JsonObject *o,
             const char *key)
{
  JsonNode *n = json_object_get_member (o, key);

  if (n == NULL || !JSON_NODE_HOLDS_VALUE (n))
    return NULL;
  if (json_node_get_value_type (n) == G_TYPE_STRING)
    return *json_node_get_string (n) ? g_strdup (json_node_get_string (n)) : NULL;
  if (json_node_get_value_type (n) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (n));
  return NULL;
}

static gint64
member_int (JsonObject *o,
            const char *key)
{
  g_autofree char *text = member_text (o, key);
  gint64 v;

  return text && g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, &v, NULL) ? v : -1;
}

/* Fills what C lacks from the args of SPAN: Kineto writes the collective's
 * name, size, dtype and group on record_param_comms, and newer versions on
 * the kernel too. */
static void
read_comm_args (ChronoTrace             *trace,
                ChronoSpanRef            span,
                ChronoSummaryCollective *c)
{
  g_autoptr(JsonNode) args = chrono_trace_get_span_args (trace, span);
  JsonObject *o;

  if (args == NULL || !JSON_NODE_HOLDS_OBJECT (args))
    return;
  o = json_node_get_object (args);
  if (c->collective == NULL)
    c->collective = member_text (o, "Collective name");
  if (c->group == NULL)
    c->group = member_text (o, "Process Group Name");
  if (c->group == NULL)
    c->group = member_text (o, "pg_id");
  if (c->group_seq < 0)
    c->group_seq = member_int (o, "Seq");
  if (c->nelems < 0)
    c->nelems = member_int (o, "In msg nelems");
  if (c->dtype == NULL)
    c->dtype = member_text (o, "dtype");
}

/* The host spans around the call that launched the collective, innermost
 * first, up to a step: record_param_comms and nccl: annotations. */
#define MAX_SCAN_BACK 256

static void
read_host_args (ChronoTrace             *trace,
                guint32                  track_index,
                guint32                  index,
                ChronoSummaryCollective *c)
{
  const ChronoTrack *t = chrono_trace_get_track (trace, track_index);
  gint64 start = t->start[index], end = chrono_track_get_end (t, index);

  for (guint32 i = index, n = 0; i-- > 0 && n < MAX_SCAN_BACK; n++)
    {
      const char *name = chrono_trace_get_string (trace, chrono_track_get_name (t, i));

      if (chrono_track_get_end (t, i) < end || t->start[i] > start || name == NULL)
        continue;
      if (g_str_has_prefix (name, "ProfilerStep"))
        break;
      if (strcmp (name, "record_param_comms") == 0)
        read_comm_args (trace, (ChronoSpanRef) { track_index, i }, c);
      else if (g_str_has_prefix (name, "nccl:") && c->collective == NULL)
        c->collective = g_strdup (name + 5);
    }
}

static gint
step_of (ChronoRankData *data,
         gint64          t)
{
  for (guint k = data->steps->len; k > 0; k--)
    {
      const ChronoStep *s = &g_array_index (data->steps, ChronoStep, k - 1);

      if (s->start <= t)
        return t < MAX (s->end, s->work_end) ? (gint) k - 1 : -1;
    }
  return -1;
}

static void
add_collectives (ChronoRankSummary *self,
                 ChronoRankData    *data)
{
  ChronoTrace *trace = data->trace;

  for (guint k = 0; k < data->collectives->len; k++)
    {
      const ChronoWorkItem *it = &g_array_index (data->collectives, ChronoWorkItem, k);
      const ChronoTrack *t = chrono_trace_get_track (trace, it->track);
      ChronoSummaryCollective c = {
        .seq = k, .step = step_of (data, it->start),
        .device = chrono_trace_get_process (trace, t->process)->device_index,
        .name = g_strdup (chrono_trace_get_string (trace, chrono_track_get_name (t, it->index))),
        .group_seq = -1, .nelems = -1, .bytes = -1,
        .start_ns = it->start, .end_ns = it->end,
      };

      read_comm_args (trace, (ChronoSpanRef) { it->track, it->index }, &c);
      if (it->launch_start != G_MININT64)
        read_host_args (trace, it->launch_track, it->launch_index, &c);
      if (c.nelems >= 0 && dtype_size (c.dtype) > 0)
        c.bytes = c.nelems * dtype_size (c.dtype);
      g_array_append_val (self->collectives, c);
    }
}

ChronoRankSummary *
chrono_rank_summary_new_from_trace (ChronoTrace                 *trace,
                                    const ChronoAnalysisOptions *options,
                                    GCancellable                *cancellable,
                                    GError                     **error)
{
  g_autoptr(ChronoRankSummary) self = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  const ChronoTracePart *part;
  ChronoRankData **ranks;
  guint n_ranks;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  if (chrono_trace_get_n_parts (trace) != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: %u files merged into one trace; a summary is of one rank's file",
                   chrono_trace_get_path (trace), chrono_trace_get_n_parts (trace));
      return NULL;
    }
  analysis = chrono_analysis_run (&trace, 1, options, cancellable, error);
  if (analysis == NULL)
    return NULL;
  ranks = chrono_analysis_get_ranks (analysis, &n_ranks);
  g_assert (n_ranks == 1);

  part = chrono_trace_get_part (trace, 0);
  self = chrono_rank_summary_new ();
  self->path = g_strdup (part->path);
  self->rank = part->rank;
  self->world_size = part->world_size;
  self->base_time_ns = part->base_time_ns;
  self->first_ns = part->start_ns;
  self->last_ns = part->end_ns;

  for (guint k = 0; k < ranks[0]->steps->len; k++)
    {
      const ChronoStep *s = &g_array_index (ranks[0]->steps, ChronoStep, k);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      ChronoSummaryStep step = {
        .name = g_strdup (chrono_trace_get_string (trace, chrono_track_get_name (t, s->index))),
        .start_ns = s->start, .end_ns = MAX (s->end, s->work_end),
      };

      g_array_append_val (self->steps, step);
    }
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (analysis); i++)
    {
      const ChronoLedgerRow *row = chrono_analysis_get_ledger_row (analysis, i);
      ChronoSummaryLedger l = {
        .device = chrono_analysis_get_breakdown (analysis, row->breakdown)->device,
        .step = row->step, .start_ns = row->start_ns, .end_ns = row->end_ns,
        .recoverable_ns = row->recoverable_ns,
      };

      memcpy (l.state_ns, row->state_ns, sizeof l.state_ns);
      g_array_append_val (self->ledger, l);
    }
  add_collectives (self, ranks[0]);
  for (guint i = 0; i < chrono_analysis_get_n_findings (analysis); i++)
    {
      const ChronoFinding *f = chrono_analysis_get_finding (analysis, i);
      ChronoSummaryFinding sf = {
        .rule = g_strdup (f->rule), .severity = g_strdup (chrono_severity_to_string (f->severity)),
        .title = g_strdup (f->title), .start_ns = f->start_ns, .end_ns = f->end_ns,
        .time_lost_ns = f->time_lost_ns,
      };

      g_array_append_val (self->findings, sf);
    }
  for (guint i = 0; i < chrono_analysis_get_n_limitations (analysis); i++)
    {
      const ChronoLimitation *l = chrono_analysis_get_limitation (analysis, i);
      ChronoSummaryLimitation sl = { g_strdup (l->id), g_strdup (l->message) };

      g_array_append_val (self->limitations, sl);
    }
  return g_steal_pointer (&self);
}

/* -------------------------------------------------------------------- */
/* JSON                                                                 */

static void
add_str (JsonBuilder *b,
         const char  *key,
         const char  *value)
{
  if (value != NULL)
    chrono_json_add_string (b, key, value);
}

char *
chrono_rank_summary_to_json (ChronoRankSummary *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  add_str (b, "schema", CHRONO_RANK_SUMMARY_SCHEMA);
  add_str (b, "path", self->path);
  chrono_json_add_int (b, "rank", self->rank);
  chrono_json_add_int (b, "world_size", self->world_size);
  chrono_json_add_int (b, "base_time_ns", self->base_time_ns);
  chrono_json_add_int (b, "first_ns", self->first_ns);
  chrono_json_add_int (b, "last_ns", self->last_ns);

  json_builder_set_member_name (b, "ledger_states");
  json_builder_begin_array (b);
  for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
    json_builder_add_string_value (b, chrono_ledger_state_to_string (s));
  json_builder_end_array (b);

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->steps->len; i++)
    {
      const ChronoSummaryStep *s = &g_array_index (self->steps, ChronoSummaryStep, i);

      json_builder_begin_object (b);
      add_str (b, "name", s->name);
      chrono_json_add_int (b, "start_ns", s->start_ns);
      chrono_json_add_int (b, "end_ns", s->end_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "ledger");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->ledger->len; i++)
    {
      const ChronoSummaryLedger *l = &g_array_index (self->ledger, ChronoSummaryLedger, i);

      json_builder_begin_object (b);
      chrono_json_add_int (b, "device", l->device);
      chrono_json_add_int (b, "step", l->step);
      chrono_json_add_int (b, "start_ns", l->start_ns);
      chrono_json_add_int (b, "end_ns", l->end_ns);
      json_builder_set_member_name (b, "state_ns");
      json_builder_begin_array (b);
      for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
        json_builder_add_int_value (b, l->state_ns[s]);
      json_builder_end_array (b);
      chrono_json_add_int (b, "recoverable_ns", l->recoverable_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "collectives");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->collectives->len; i++)
    {
      const ChronoSummaryCollective *c = &g_array_index (self->collectives, ChronoSummaryCollective, i);

      json_builder_begin_object (b);
      chrono_json_add_int (b, "seq", c->seq);
      chrono_json_add_int (b, "step", c->step);
      chrono_json_add_int (b, "device", c->device);
      add_str (b, "name", c->name);
      add_str (b, "collective", c->collective);
      add_str (b, "group", c->group);
      if (c->group_seq >= 0)
        chrono_json_add_int (b, "group_seq", c->group_seq);
      if (c->nelems >= 0)
        chrono_json_add_int (b, "nelems", c->nelems);
      add_str (b, "dtype", c->dtype);
      if (c->bytes >= 0)
        chrono_json_add_int (b, "bytes", c->bytes);
      chrono_json_add_int (b, "start_ns", c->start_ns);
      chrono_json_add_int (b, "end_ns", c->end_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->findings->len; i++)
    {
      const ChronoSummaryFinding *f = &g_array_index (self->findings, ChronoSummaryFinding, i);

      json_builder_begin_object (b);
      add_str (b, "rule", f->rule);
      add_str (b, "severity", f->severity);
      add_str (b, "title", f->title);
      chrono_json_add_int (b, "start_ns", f->start_ns);
      chrono_json_add_int (b, "end_ns", f->end_ns);
      chrono_json_add_int (b, "time_lost_ns", f->time_lost_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "limitations");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->limitations->len; i++)
    {
      const ChronoSummaryLimitation *l = &g_array_index (self->limitations, ChronoSummaryLimitation, i);

      json_builder_begin_object (b);
      add_str (b, "id", l->id);
      add_str (b, "message", l->message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

gboolean
chrono_rank_summary_write (ChronoRankSummary *self,
                           const char        *path,
                           GError           **error)
{
  g_autofree char *text = chrono_rank_summary_to_json (self);
  g_autofree char *tmp = g_strconcat (path, ".tmp", NULL);

  /* Renamed into place, so a reader never sees half a summary; not
   * synced to disk, which would cost more than summarising a small rank
   * (the trace is still there to summarise again after a crash). */
  if (!g_file_set_contents_full (tmp, text, -1, G_FILE_SET_CONTENTS_NONE, 0644, error))
    return FALSE;
  if (g_rename (tmp, path) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path, g_strerror (saved));
      g_unlink (tmp);
      return FALSE;
    }
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* Reading                                                              */

static gboolean
read_steps (ChronoJsonReader  *r,
            JsonArray         *a,
            ChronoRankSummary *self)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      ChronoSummaryStep s = { NULL };
      JsonObject *o = chrono_json_reader_element (r, a, "steps", i);

      if (o == NULL ||
          !chrono_json_reader_string (r, o, "name", TRUE, &s.name) ||
          !chrono_json_reader_int (r, o, "start_ns", TRUE, &s.start_ns) ||
          !chrono_json_reader_int (r, o, "end_ns", TRUE, &s.end_ns))
        {
          step_clear (&s);
          return FALSE;
        }
      g_array_append_val (self->steps, s);
    }
  return TRUE;
}

static gboolean
read_ledger (ChronoJsonReader  *r,
             JsonArray         *a,
             ChronoRankSummary *self)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      ChronoSummaryLedger l = { 0 };
      JsonObject *o = chrono_json_reader_element (r, a, "ledger", i);
      gint64 device, step;

      if (o == NULL ||
          !chrono_json_reader_int (r, o, "device", TRUE, &device) ||
          !chrono_json_reader_int (r, o, "step", TRUE, &step) ||
          !chrono_json_reader_int (r, o, "start_ns", TRUE, &l.start_ns) ||
          !chrono_json_reader_int (r, o, "end_ns", TRUE, &l.end_ns) ||
          !chrono_json_reader_int_array (r, o, "state_ns", l.state_ns, CHRONO_N_LEDGER_STATES) ||
          !chrono_json_reader_int (r, o, "recoverable_ns", TRUE, &l.recoverable_ns))
        return FALSE;
      if (step < -1 || step >= (gint64) self->steps->len)
        return chrono_json_reader_fail (r, "“step” %" G_GINT64_FORMAT " names no step", step);
      l.device = (gint) CLAMP (device, -1, G_MAXINT);
      l.step = (gint) step;
      g_array_append_val (self->ledger, l);
    }
  return TRUE;
}

static gboolean
read_collectives (ChronoJsonReader  *r,
                  JsonArray         *a,
                  ChronoRankSummary *self)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      ChronoSummaryCollective c = { .group_seq = -1, .nelems = -1, .bytes = -1 };
      JsonObject *o = chrono_json_reader_element (r, a, "collectives", i);
      gint64 step = -1, device = -1;
      gboolean ok = o != NULL &&
        chrono_json_reader_int (r, o, "step", TRUE, &step) &&
        chrono_json_reader_int (r, o, "device", TRUE, &device) &&
        chrono_json_reader_string (r, o, "name", TRUE, &c.name) &&
        chrono_json_reader_string (r, o, "collective", FALSE, &c.collective) &&
        chrono_json_reader_string (r, o, "group", FALSE, &c.group) &&
        chrono_json_reader_int (r, o, "group_seq", FALSE, &c.group_seq) &&
        chrono_json_reader_int (r, o, "nelems", FALSE, &c.nelems) &&
        chrono_json_reader_string (r, o, "dtype", FALSE, &c.dtype) &&
        chrono_json_reader_int (r, o, "bytes", FALSE, &c.bytes) &&
        chrono_json_reader_int (r, o, "start_ns", TRUE, &c.start_ns) &&
        chrono_json_reader_int (r, o, "end_ns", TRUE, &c.end_ns);

      if (ok && (step < -1 || step >= (gint64) self->steps->len))
        ok = chrono_json_reader_fail (r, "“step” %" G_GINT64_FORMAT " names no step", step);
      if (ok && c.end_ns < c.start_ns)
        ok = chrono_json_reader_fail (r, "“end_ns” is before “start_ns”");
      if (ok && i > 0 && c.start_ns < g_array_index (self->collectives, ChronoSummaryCollective, i - 1).start_ns)
        ok = chrono_json_reader_fail (r, "the collectives are not in start order");
      if (!ok)
        {
          collective_clear (&c);
          return FALSE;
        }
      c.seq = i;
      c.step = (gint) step;
      c.device = (gint) CLAMP (device, -1, G_MAXINT);
      g_array_append_val (self->collectives, c);
    }
  return TRUE;
}

static gboolean
read_findings (ChronoJsonReader  *r,
               JsonArray         *a,
               ChronoRankSummary *self)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      ChronoSummaryFinding f = { NULL };
      JsonObject *o = chrono_json_reader_element (r, a, "findings", i);

      if (o == NULL ||
          !chrono_json_reader_string (r, o, "rule", TRUE, &f.rule) ||
          !chrono_json_reader_string (r, o, "severity", TRUE, &f.severity) ||
          !chrono_json_reader_string (r, o, "title", TRUE, &f.title) ||
          !chrono_json_reader_int (r, o, "start_ns", TRUE, &f.start_ns) ||
          !chrono_json_reader_int (r, o, "end_ns", TRUE, &f.end_ns) ||
          !chrono_json_reader_int (r, o, "time_lost_ns", TRUE, &f.time_lost_ns))
        {
          finding_clear (&f);
          return FALSE;
        }
      g_array_append_val (self->findings, f);
    }
  return TRUE;
}

static gboolean
read_limitations (ChronoJsonReader  *r,
                  JsonArray         *a,
                  ChronoRankSummary *self)
{
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      ChronoSummaryLimitation l = { NULL };
      JsonObject *o = chrono_json_reader_element (r, a, "limitations", i);

      if (o == NULL ||
          !chrono_json_reader_string (r, o, "id", TRUE, &l.id) ||
          !chrono_json_reader_string (r, o, "message", TRUE, &l.message))
        {
          limitation_clear (&l);
          return FALSE;
        }
      g_array_append_val (self->limitations, l);
    }
  return TRUE;
}

static gboolean
read_summary (ChronoJsonReader  *r,
              ChronoRankSummary *self)
{
  JsonObject *root = r->root;
  g_autofree char *schema = NULL;
  JsonArray *steps, *ledger, *collectives, *findings, *limitations;
  gint64 rank, world_size;

  if (!chrono_json_reader_string (r, root, "schema", TRUE, &schema))
    return FALSE;
  if (strcmp (schema, CHRONO_RANK_SUMMARY_SCHEMA) != 0)
    return chrono_json_reader_fail (r, "schema “%s”, expected “%s”", schema, CHRONO_RANK_SUMMARY_SCHEMA);
  if (!chrono_json_reader_string (r, root, "path", TRUE, &self->path) ||
      !chrono_json_reader_int (r, root, "rank", TRUE, &rank) ||
      !chrono_json_reader_int (r, root, "world_size", TRUE, &world_size) ||
      !chrono_json_reader_int (r, root, "base_time_ns", TRUE, &self->base_time_ns) ||
      !chrono_json_reader_int (r, root, "first_ns", TRUE, &self->first_ns) ||
      !chrono_json_reader_int (r, root, "last_ns", TRUE, &self->last_ns))
    return FALSE;
  if (rank < -1 || rank > G_MAXINT || world_size < -1 || world_size > G_MAXINT)
    return chrono_json_reader_fail (r, "“rank” and “world_size” should be -1 or a count");
  self->rank = (gint) rank;
  self->world_size = (gint) world_size;
  return (steps = chrono_json_reader_array (r, root, "steps")) &&
         (ledger = chrono_json_reader_array (r, root, "ledger")) &&
         (collectives = chrono_json_reader_array (r, root, "collectives")) &&
         (findings = chrono_json_reader_array (r, root, "findings")) &&
         (limitations = chrono_json_reader_array (r, root, "limitations")) &&
         read_steps (r, steps, self) &&
         read_ledger (r, ledger, self) &&
         read_collectives (r, collectives, self) &&
         read_findings (r, findings, self) &&
         read_limitations (r, limitations, self);
}

ChronoRankSummary *
chrono_rank_summary_new_from_data (const char  *data,
                                   gssize       length,
                                   const char  *name,
                                   GError     **error)
{
  g_autoptr(ChronoRankSummary) self = chrono_rank_summary_new ();
  g_auto(ChronoJsonReader) r = { NULL };

  if (!chrono_json_reader_init (&r, data, length, name, error))
    return NULL;
  if (!read_summary (&r, self))
    {
      chrono_json_reader_propagate (&r, error);
      return NULL;
    }
  return g_steal_pointer (&self);
}

ChronoRankSummary *
chrono_rank_summary_load (const char  *path,
                          GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  return chrono_rank_summary_new_from_data (data, length, path, error);
}
