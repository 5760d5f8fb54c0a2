/* chrono-trace-facts.c
 *
 * Kineto writes these at the top of its file: deviceProperties, the CUDA
 * versions, distributedInfo, and record_shapes and with_stack only when
 * they are on. A fact the file does not hold is said to be missing, not
 * guessed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "chrono-format.h"
#include "chrono-trace-facts.h"

/* Host operators whose args are read for shapes when the file does not
 * say whether it recorded them. */
#define SHAPE_PROBES 200

static void
fact_clear (gpointer data)
{
  g_free (((ChronoTraceFact *) data)->value);
}

static void
add (GArray     *facts,
     const char *label,
     char       *value,
     gboolean    missing)
{
  ChronoTraceFact fact = { label, value, missing };

  g_array_append_val (facts, fact);
}

static void
add_missing (GArray     *facts,
             const char *label)
{
  add (facts, label, g_strdup (_("Not recorded in the trace")), TRUE);
}

/* A top-level member as a number, when the trace has it. */
static gboolean
get_number (ChronoTrace *trace,
            const char  *key,
            gint64      *value)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (trace, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) == G_TYPE_STRING)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

/* "NVIDIA H100 80GB HBM3 (85.0 GB)", "8 × NVIDIA A100 …": the same
 * device once, with how many. */
static void
add_devices (ChronoTrace *trace,
             GArray      *facts)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (trace, "deviceProperties");
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) counts = g_array_new (FALSE, TRUE, sizeof (guint));
  JsonArray *devices;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) == 0)
    {
      add_missing (facts, _("Devices"));
      return;
    }
  devices = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (devices); i++)
    {
      JsonObject *d = json_array_get_object_element (devices, i);
      g_autofree char *memory = NULL;
      g_autofree char *name = NULL;
      guint at = 0;

      if (d == NULL)
        continue;
      memory = json_object_has_member (d, "totalGlobalMem")
        ? chrono_format_bytes ((guint64) json_object_get_int_member (d, "totalGlobalMem")) : NULL;
      name = memory != NULL ? g_strdup_printf ("%s (%s)", json_object_get_string_member_with_default (d, "name", "?"),
                                               memory)
                            : g_strdup (json_object_get_string_member_with_default (d, "name", "?"));
      while (at < names->len && !g_str_equal (names->pdata[at], name))
        at++;
      if (at == names->len)
        {
          g_ptr_array_add (names, g_steal_pointer (&name));
          g_array_set_size (counts, names->len);
        }
      g_array_index (counts, guint, at)++;
    }
  for (guint i = 0; i < names->len; i++)
    {
      guint n = g_array_index (counts, guint, i);

      if (text->len > 0)
        g_string_append (text, ", ");
      if (n > 1)
        /* Translators: how many devices of one kind, then the kind */
        g_string_append_printf (text, _("%u × %s"), n, (const char *) names->pdata[i]);
      else
        g_string_append (text, names->pdata[i]);
    }
  add (facts, _("Devices"), g_string_free (g_steal_pointer (&text), FALSE), FALSE);
}

/* Kineto writes CUDA's versions as 12040 for 12.4. */
static char *
cuda_version (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%" G_GINT64_FORMAT, value / 1000, value % 1000 / 10);
}

static void
add_versions (ChronoTrace *trace,
              GArray      *facts)
{
  static const char *const torch_keys[] = { "pytorch_version", "torch_version" };
  g_autoptr(GString) cuda = g_string_new (NULL);
  gint64 runtime, driver;

  char *torch = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (torch_keys) && torch == NULL; i++)
    {
      g_autoptr(JsonNode) node = chrono_trace_get_metadata (trace, torch_keys[i]);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        torch = g_strdup (json_node_get_string (node));
    }
  if (torch != NULL)
    add (facts, _("PyTorch"), torch, FALSE);
  else
    add_missing (facts, _("PyTorch"));
  if (get_number (trace, "cuda_runtime_version", &runtime))
    {
      g_autofree char *v = cuda_version (runtime);
      /* Translators: CUDA's runtime version */
      g_string_append_printf (cuda, _("runtime %s"), v);
    }
  if (get_number (trace, "cuda_driver_version", &driver))
    {
      g_autofree char *v = cuda_version (driver);
      /* Translators: CUDA's driver version */
      g_string_append_printf (cuda, cuda->len > 0 ? _(", driver %s") : _("driver %s"), v);
    }
  if (cuda->len > 0)
    add (facts, _("CUDA"), g_string_free (g_steal_pointer (&cuda), FALSE), FALSE);
  else
    add_missing (facts, _("CUDA or ROCm"));
}

/* "rank 3 of 8 · nccl 2.17.1", or the ranks of a folder. */
static void
add_distributed (ChronoTrace *trace,
                 GArray      *facts)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (trace, "distributedInfo");
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_parts = chrono_trace_get_n_parts (trace);
  JsonObject *info;

  if (n_parts > 1)
    {
      guint ranked = 0;

      for (guint i = 0; i < n_parts; i++)
        ranked += chrono_trace_get_part (trace, i)->rank >= 0;
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", n_parts), n_parts);
      if (ranked > 0)
        g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, ", %u with its rank", ", %u with their ranks", ranked),
                                ranked);
    }
  else if (chrono_trace_get_rank (trace) >= 0)
    g_string_append_printf (text, _("rank %d of %d"), chrono_trace_get_rank (trace),
                            chrono_trace_get_world_size (trace));
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    {
      info = json_node_get_object (node);
      if (json_object_has_member (info, "backend"))
        g_string_append_printf (text, "%s%s", text->len > 0 ? " · " : "",
                                json_object_get_string_member_with_default (info, "backend", ""));
      if (json_object_has_member (info, "nccl_version"))
        g_string_append_printf (text, " %s", json_object_get_string_member_with_default (info, "nccl_version", ""));
    }
  if (text->len > 0)
    add (facts, _("Distributed"), g_string_free (g_steal_pointer (&text), FALSE), FALSE);
  else
    add_missing (facts, _("Distributed"));
}

/* How many steps, and the first and last by name. */
static void
add_steps (ChronoTrace *trace,
           GArray      *facts)
{
  const char *first = NULL, *last = NULL;
  gint64 first_ns = G_MAXINT64, last_ns = G_MININT64;
  guint64 n = chrono_trace_get_stats (trace)->kinds[CHRONO_KIND_STEP];

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && n > 0; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 s = 0; s < track->n_spans; s++)
        if (track->kind[s] == CHRONO_KIND_STEP)
          {
            if (track->start[s] < first_ns)
              first_ns = track->start[s], first = chrono_trace_get_string (trace, chrono_track_get_name (track, s));
            if (track->start[s] > last_ns)
              last_ns = track->start[s], last = chrono_trace_get_string (trace, chrono_track_get_name (track, s));
          }
    }
  if (n == 0)
    add (facts, _("Steps"), g_strdup (_("None marked (no ProfilerStep spans)")), TRUE);
  else if (n == 1 || g_strcmp0 (first, last) == 0)
    add (facts, _("Steps"), g_strdup_printf ("%" G_GUINT64_FORMAT " · %s", n, first), FALSE);
  else
    /* Translators: how many steps, the first and the last */
    add (facts, _("Steps"), g_strdup_printf (_("%" PRIu64 " · %s to %s"), n, first, last), FALSE);
}

/* Whether some of the first host operators' args hold their shapes. */
static gboolean
has_shapes (ChronoTrace *trace)
{
  guint probed = 0;

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace) && probed < SHAPE_PROBES; t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 s = 0; s < track->n_spans && probed < SHAPE_PROBES; s++)
        if (track->kind[s] == CHRONO_KIND_HOST_OP)
          {
            g_autoptr(JsonNode) args = chrono_trace_get_span_args (trace, (ChronoSpanRef) { t, s });

            probed++;
            if (args != NULL && JSON_NODE_HOLDS_OBJECT (args) &&
                json_object_has_member (json_node_get_object (args), "Input Dims"))
              return TRUE;
          }
    }
  return FALSE;
}

static void
add_recorded (ChronoTrace *trace,
              GArray      *facts)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  guint64 python = stats->kinds[CHRONO_KIND_PYTHON];
  gint64 flag;

  if ((get_number (trace, "record_shapes", &flag) && flag != 0) || has_shapes (trace))
    add (facts, _("Shapes"), g_strdup (_("Recorded (record_shapes)")), FALSE);
  else
    add (facts, _("Shapes"), g_strdup (_("Not recorded: no FLOPs or roofline (profile with record_shapes=True)")),
         TRUE);
  if (python > 0)
    {
      g_autofree char *count = chrono_format_count (python);
      /* Translators: how many Python frames the trace holds */
      add (facts, _("Python stacks"), g_strdup_printf (_("Recorded (with_stack): %s frames"), count), FALSE);
    }
  else
    add (facts, _("Python stacks"), g_strdup (_("Not recorded (profile with with_stack=True)")), TRUE);
}

GArray *
chrono_trace_facts_new (ChronoTrace *trace)
{
  GArray *facts = g_array_new (FALSE, FALSE, sizeof (ChronoTraceFact));

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), facts);

  g_array_set_clear_func (facts, fact_clear);
  add_devices (trace, facts);
  add_versions (trace, facts);
  add_distributed (trace, facts);
  add_steps (trace, facts);
  add_recorded (trace, facts);
  return facts;
}
