/* chrono-memory-report.c: the memory analysis as JSON and as Markdown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-analysis.h"
#include "chrono-format.h"
#include "chrono-json-util.h"
#include "chrono-memory-private.h"

/* Markdown shows the first few; the JSON has what the analysis kept. */
#define MARKDOWN_ROWS 8

static void
add_nullable_int (JsonBuilder *b,
                  const char  *name,
                  gint64       value,
                  gboolean     known)
{
  json_builder_set_member_name (b, name);
  if (known)
    json_builder_add_int_value (b, value);
  else
    json_builder_add_null_value (b);
}

static const char *
group_name (ChronoTrace *trace,
            guint32      name,
            gboolean     category)
{
  if (category)
    return chrono_memory_category_to_string (name);
  return name != CHRONO_NO_STRING ? chrono_trace_get_string (trace, name) : NULL;
}

static void
write_groups (JsonBuilder  *b,
              ChronoTrace  *trace,
              const char   *member,
              const char   *key,
              GArray       *groups)
{
  gboolean category = g_str_equal (key, "category");

  json_builder_set_member_name (b, member);
  json_builder_begin_array (b);
  for (guint k = 0; k < groups->len; k++)
    {
      const ChronoMemoryGroup *g = &g_array_index (groups, ChronoMemoryGroup, k);

      json_builder_begin_object (b);
      chrono_json_add_nullable_string (b, key, group_name (trace, g->name, category));
      chrono_json_add_int (b, "bytes", g->bytes);
      chrono_json_add_int (b, "allocations", g->allocations);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
write_allocation (JsonBuilder                  *b,
                  ChronoTrace                  *trace,
                  const ChronoMemoryAllocation *a)
{
  json_builder_begin_object (b);
  chrono_json_add_int (b, "bytes", a->bytes);
  chrono_json_add_int (b, "addr", (gint64) a->addr);
  chrono_json_add_int (b, "alloc_ns", a->alloc_ns);
  add_nullable_int (b, "free_ns", a->free_ns, a->free_ns >= 0);
  chrono_json_add_nullable_string (b, "operator", group_name (trace, a->op_name, FALSE));
  chrono_json_add_nullable_string (b, "module", group_name (trace, a->module_name, FALSE));
  chrono_json_add_string (b, "category", chrono_memory_category_to_string (a->category));
  json_builder_end_object (b);
}

static void
write_live (JsonBuilder              *b,
            ChronoTrace              *trace,
            const ChronoMemoryDevice *d)
{
  json_builder_set_member_name (b, "live_at_peak");
  if (!d->has_addresses)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  chrono_json_add_int (b, "allocations", d->n_live);
  chrono_json_add_int (b, "bytes", d->live_bytes);
  chrono_json_add_int (b, "before_trace_bytes", d->peak_allocated_bytes - d->live_bytes);
  write_groups (b, trace, "by_operator", "operator", d->by_operator);
  write_groups (b, trace, "by_module", "module", d->by_module);
  write_groups (b, trace, "by_category", "category", d->by_category);
  json_builder_set_member_name (b, "largest");
  json_builder_begin_array (b);
  for (guint k = 0; k < d->largest->len; k++)
    write_allocation (b, trace, &g_array_index (d->allocations, ChronoMemoryAllocation,
                                                g_array_index (d->largest, guint, k)));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
write_steps (JsonBuilder              *b,
             ChronoTrace              *trace,
             const ChronoMemoryDevice *d)
{
  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint k = 0; k < d->steps->len; k++)
    {
      const ChronoMemoryStep *s = &g_array_index (d->steps, ChronoMemoryStep, k);

      json_builder_begin_object (b);
      chrono_json_add_string (b, "name", chrono_trace_get_string (trace, s->name));
      chrono_json_add_int (b, "start_ns", s->start_ns);
      chrono_json_add_int (b, "end_ns", s->end_ns);
      chrono_json_add_int (b, "start_bytes", s->start_bytes);
      chrono_json_add_int (b, "end_bytes", s->end_bytes);
      chrono_json_add_int (b, "peak_bytes", s->peak_bytes);
      chrono_json_add_int (b, "peak_ns", s->peak_ns);
      chrono_json_add_int (b, "growth_bytes", s->end_bytes - s->start_bytes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
write_parts (JsonBuilder              *b,
             ChronoTrace              *trace,
             const ChronoMemoryDevice *d)
{
  json_builder_set_member_name (b, "parts_at_peak");
  json_builder_begin_array (b);
  for (guint k = 0; d->parts_at_peak != NULL && k < d->parts_at_peak->len; k++)
    {
      const ChronoMemoryGroup *g = &g_array_index (d->parts_at_peak, ChronoMemoryGroup, k);

      json_builder_begin_object (b);
      chrono_json_add_string (b, "part", chrono_memory_part_name (chrono_trace_get_string (trace, g->name)));
      chrono_json_add_int (b, "bytes", g->bytes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
write_device (JsonBuilder              *b,
              ChronoTrace              *trace,
              guint                     trace_index,
              const ChronoMemoryDevice *d)
{
  json_builder_begin_object (b);
  chrono_json_add_int (b, "trace", trace_index);
  chrono_json_add_int (b, "part", d->part);
  chrono_json_add_int (b, "rank", d->rank);
  chrono_json_add_string (b, "device", d->label);
  chrono_json_add_int (b, "device_type", d->device_type);
  chrono_json_add_int (b, "device_id", d->device_id);
  chrono_json_add_string (b, "source", d->counter_name != CHRONO_NO_STRING ? "counter"
                                       : d->has_totals ? "total_allocated" : "bytes_from_first_event");
  chrono_json_add_nullable_string (b, "counter", d->counter_name != CHRONO_NO_STRING
                                                 ? chrono_trace_get_string (trace, d->counter_name) : NULL);
  chrono_json_add_int (b, "events", d->n_events);
  /* A counter samples what is in use, not what was allocated or freed. */
  add_nullable_int (b, "allocations", d->n_allocations, d->counter_name == CHRONO_NO_STRING);
  add_nullable_int (b, "frees", d->n_frees, d->counter_name == CHRONO_NO_STRING);
  add_nullable_int (b, "unmatched_frees", d->n_unmatched_frees, d->has_addresses);
  add_nullable_int (b, "unfreed", d->n_unfreed, d->has_addresses);
  chrono_json_add_int (b, "peak_allocated_bytes", d->peak_allocated_bytes);
  chrono_json_add_int (b, "peak_ns", d->peak_ns);
  add_nullable_int (b, "reserved_at_peak_bytes", d->reserved_at_peak_bytes, d->has_totals);
  add_nullable_int (b, "peak_reserved_bytes", d->peak_reserved_bytes, d->has_totals);
  add_nullable_int (b, "peak_reserved_ns", d->peak_reserved_ns, d->has_totals);
  add_nullable_int (b, "capacity_bytes", d->capacity_bytes, d->capacity_bytes > 0);
  write_live (b, trace, d);
  write_steps (b, trace, d);
  write_parts (b, trace, d);
  json_builder_end_object (b);
}

static void
write_finding (JsonBuilder               *b,
               ChronoTrace               *trace,
               guint                      trace_index,
               const ChronoMemoryFinding *f)
{
  json_builder_begin_object (b);
  chrono_json_add_string (b, "rule", f->rule);
  chrono_json_add_int (b, "trace", trace_index);
  chrono_json_add_int (b, "device", f->device);
  chrono_json_add_string (b, "severity", chrono_severity_to_string (f->severity));
  chrono_json_add_string (b, "title", f->title);
  chrono_json_add_int (b, "start_ns", f->start_ns);
  chrono_json_add_int (b, "end_ns", f->end_ns);
  chrono_json_add_nullable_string (b, "operator", group_name (trace, f->op_name, FALSE));
  json_builder_set_member_name (b, "evidence");
  json_builder_begin_object (b);
  for (guint k = 0; k < f->n_evidence; k++)
    {
      json_builder_set_member_name (b, f->evidence_keys[k]);
      json_builder_add_int_value (b, (gint64) f->evidence_values[k]);
    }
  json_builder_end_object (b);
  chrono_json_add_string (b, "recommendation", f->recommendation);
  json_builder_end_object (b);
}

void
chrono_memory_write_json (ChronoMemory * const *memories,
                          guint                 n_memories,
                          JsonBuilder          *b)
{
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint t = 0; t < n_memories; t++)
    for (guint i = 0; i < chrono_memory_get_n_devices (memories[t]); i++)
      write_device (b, chrono_memory_get_trace (memories[t]), t, chrono_memory_get_device (memories[t], i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  for (guint t = 0; t < n_memories; t++)
    for (guint i = 0; i < chrono_memory_get_n_findings (memories[t]); i++)
      write_finding (b, chrono_memory_get_trace (memories[t]), t, chrono_memory_get_finding (memories[t], i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_array (b);
  for (guint t = 0; t < n_memories; t++)
    for (const char * const *n = chrono_memory_get_notes (memories[t]); *n != NULL; n++)
      json_builder_add_string_value (b, *n);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
append_device (GString                  *out,
               ChronoTrace              *trace,
               const ChronoMemoryDevice *d)
{
  g_autofree char *peak = chrono_format_bytes (d->peak_allocated_bytes);
  g_autofree char *at = chrono_format_duration (d->peak_ns - chrono_trace_get_start_ns (trace));

  if (d->counter_name != CHRONO_NO_STRING)
    g_string_append_printf (out, _("**%s**: peak %s in use at %s"), d->label, peak, at);
  else
    g_string_append_printf (out, _("**%s**: peak %s allocated at %s"), d->label, peak, at);
  if (d->reserved_at_peak_bytes > 0)
    {
      g_autofree char *reserved = chrono_format_bytes (d->reserved_at_peak_bytes);
      g_string_append_printf (out, _(", %s reserved then"), reserved);
    }
  g_string_append (out, ".");
  if (d->parts_at_peak != NULL && d->parts_at_peak->len > 0)
    {
      g_string_append_printf (out, " %s", _("Then:"));
      for (guint k = 0; k < MIN (d->parts_at_peak->len, MARKDOWN_ROWS); k++)
        {
          const ChronoMemoryGroup *g = &g_array_index (d->parts_at_peak, ChronoMemoryGroup, k);
          g_autofree char *bytes = chrono_format_bytes (g->bytes);

          g_string_append_printf (out, "%s %s %s", k > 0 ? "," : "",
                                  chrono_memory_part_name (chrono_trace_get_string (trace, g->name)), bytes);
        }
      if (d->parts_at_peak->len > MARKDOWN_ROWS)
        g_string_append_printf (out, ngettext (", and %u more", ", and %u more", d->parts_at_peak->len - MARKDOWN_ROWS),
                                d->parts_at_peak->len - MARKDOWN_ROWS);
      g_string_append_c (out, '.');
    }
  g_string_append (out, "\n\n");
  if (d->by_operator->len > 0)
    {
      g_autofree char *live = chrono_format_bytes (d->live_bytes);
      g_autofree char *before = chrono_format_bytes (d->peak_allocated_bytes - d->live_bytes);

      g_string_append_printf (out, _("Alive at the peak, by the operator that allocated it: %s in %u allocations the trace shows, and %s allocated before it began.\n\n"),
                              live, d->n_live, before);
      g_string_append_printf (out, "| %s | %s | %s |\n|---|---:|---:|\n", _("Operator"), _("Bytes"), _("Allocations"));
      for (guint k = 0; k < MIN (d->by_operator->len, MARKDOWN_ROWS); k++)
        {
          const ChronoMemoryGroup *g = &g_array_index (d->by_operator, ChronoMemoryGroup, k);
          g_autofree char *bytes = chrono_format_bytes (g->bytes);
          const char *name = group_name (trace, g->name, FALSE);

          g_autofree char *count = g_strdup_printf ("%u", g->allocations);

          g_string_append (out, "|");
          chrono_format_markdown_cell (out, name ? name : _("(outside any operator)"));
          chrono_format_markdown_cell (out, bytes);
          chrono_format_markdown_cell (out, count);
          g_string_append_c (out, '\n');
        }
      g_string_append_c (out, '\n');
    }
  if (d->steps->len > 0)
    {
      g_string_append_printf (out, "| %s | %s | %s | %s |\n|---|---:|---:|---:|\n",
                              _("Step"), _("Start"), _("End"), _("Peak"));
      for (guint k = 0; k < MIN (d->steps->len, MARKDOWN_ROWS); k++)
        {
          const ChronoMemoryStep *s = &g_array_index (d->steps, ChronoMemoryStep, k);
          g_autofree char *start = chrono_format_bytes (s->start_bytes);
          g_autofree char *end = chrono_format_bytes (s->end_bytes);
          g_autofree char *step_peak = chrono_format_bytes (s->peak_bytes);

          g_string_append (out, "|");
          chrono_format_markdown_cell (out, chrono_trace_get_string (trace, s->name));
          chrono_format_markdown_cell (out, start);
          chrono_format_markdown_cell (out, end);
          chrono_format_markdown_cell (out, step_peak);
          g_string_append_c (out, '\n');
        }
      g_string_append_c (out, '\n');
    }
}

void
chrono_memory_append_markdown (ChronoMemory * const *memories,
                               guint                 n_memories,
                               GString              *out)
{
  gboolean any_finding = FALSE;

  g_string_append_printf (out, "\n## %s\n\n", _("Memory"));
  for (guint t = 0; t < n_memories; t++)
    {
      ChronoTrace *trace = chrono_memory_get_trace (memories[t]);

      for (guint i = 0; i < chrono_memory_get_n_devices (memories[t]); i++)
        append_device (out, trace, chrono_memory_get_device (memories[t], i));
      for (guint i = 0; i < chrono_memory_get_n_findings (memories[t]); i++)
        {
          const ChronoMemoryFinding *f = chrono_memory_get_finding (memories[t], i);

          any_finding = TRUE;
          g_string_append_printf (out, "- **%s** (%s): %s. %s\n", f->rule,
                                  chrono_severity_to_string (f->severity), f->title, f->recommendation);
        }
      for (const char * const *n = chrono_memory_get_notes (memories[t]); *n != NULL; n++)
        g_string_append_printf (out, "- %s\n", *n);
    }
  if (any_finding)
    g_string_append_printf (out, "\n%s\n", _("Memory findings cost no time: their severity is the share of the peak (or of the device) they concern."));
}
