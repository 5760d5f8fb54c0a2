/* chrono-trace-summary.c: what a loaded trace holds, at a glance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-format.h"
#include "chrono-summary-row.h"
#include "chrono-trace-facts.h"
#include "chrono-trace-summary.h"
#include "chrono-warning-row.h"

struct _ChronoTraceSummary
{
  GtkWidget       parent_instance;

  ChronoTrace    *trace;

  GtkLabel       *title_label;
  GtkLabel       *subtitle_label;
  GtkGrid        *facts_grid;
  GtkLabel       *duration_label;
  GtkLabel       *events_label;
  GtkLabel       *spans_label;
  GtkLabel       *processes_label;
  GtkLabel       *tracks_label;
  GtkFlowBox     *kinds_box;
  GtkFlowBox     *metrics_box;  /* accelerator engines and the profiler's own metrics */
  GtkBox         *warnings_box;
  GtkColumnView  *tracks_view;
};

G_DEFINE_FINAL_TYPE (ChronoTraceSummary, chrono_trace_summary, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
kind_label (ChronoKind kind)
{
  switch (kind)
    {
    case CHRONO_KIND_HOST_OP:        return _("Host ops");
    case CHRONO_KIND_PYTHON:         return _("Python");
    case CHRONO_KIND_ANNOTATION:     return _("Annotations");
    case CHRONO_KIND_STEP:           return _("Steps");
    case CHRONO_KIND_RUNTIME:        return _("Runtime calls");
    case CHRONO_KIND_DRIVER:         return _("Driver calls");
    case CHRONO_KIND_KERNEL:         return _("Kernels");
    case CHRONO_KIND_MEMCPY:         return _("Memory copies");
    case CHRONO_KIND_MEMSET:         return _("Memory sets");
    case CHRONO_KIND_SYNC:           return _("Synchronizations");
    case CHRONO_KIND_COLLECTIVE:     return _("Collectives");
    case CHRONO_KIND_GPU_ANNOTATION: return _("GPU annotations");
    case CHRONO_KIND_ASYNC:          return _("Async");
    case CHRONO_KIND_OVERHEAD:       return _("Overhead");
    case CHRONO_KIND_TRACE:          return _("Trace");
    case CHRONO_KIND_INSTRUCTION:    return _("Engine instructions");
    case CHRONO_KIND_DMA:            return _("DMA transfers");
    case CHRONO_KIND_OTHER:
    case CHRONO_N_KINDS:
    default:                         return _("Other");
    }
}

static const char *
track_type_label (ChronoTrackType type)
{
  switch (type)
    {
    case CHRONO_TRACK_THREAD:   return _("Thread");
    case CHRONO_TRACK_STREAM:   return _("Stream");
    case CHRONO_TRACK_ASYNC:    return _("Async");
    case CHRONO_TRACK_COUNTER:  return _("Counter");
    case CHRONO_TRACK_INSTANTS: return _("Instants");
    default:                    return _("Other");
    }
}

static void
set_count (GtkLabel *label,
           guint64   count)
{
  g_autofree char *text = chrono_format_count (count);

  gtk_label_set_label (label, text);
}

/* One row per process, with its tracks as children, in the order the CLI
 * prints them; processes without a single event (named by metadata
 * alone) are left out and counted in *N_EMPTY. */
static GListModel *
build_rows (ChronoTrace *trace,
            guint       *n_empty)
{
  guint n_processes = chrono_trace_get_n_processes (trace);
  guint n_tracks;
  g_autofree guint *order = chrono_trace_dup_track_order (trace, &n_tracks);
  g_autoptr(GListStore) processes = g_list_store_new (CHRONO_TYPE_SUMMARY_ROW);
  guint i = 0;

  for (guint p = 0; p < n_processes; p++)
    {
      const ChronoProcess *process = chrono_trace_get_process (trace, p);
      g_autoptr(GListStore) tracks = g_list_store_new (CHRONO_TYPE_SUMMARY_ROW);
      g_autoptr(ChronoSummaryRow) row = NULL;
      guint64 spans = 0, instants = 0, samples = 0;

      for (; i < n_tracks; i++)
        {
          const ChronoTrack *track = chrono_trace_get_track (trace, order[i]);
          g_autoptr(ChronoSummaryRow) child = NULL;

          if (track->process != p)
            break;
          child = chrono_summary_row_new (chrono_trace_get_string (trace, track->display_name),
                                          track_type_label (track->type),
                                          track->n_spans, track->n_instants, track->n_samples,
                                          NULL);
          g_list_store_append (tracks, child);
          spans += track->n_spans;
          instants += track->n_instants;
          samples += track->n_samples;
        }

      if (spans + instants + samples == 0)
        {
          (*n_empty)++;
          continue;
        }
      row = chrono_summary_row_new (chrono_trace_get_string (trace, process->display_name),
                                    process->is_device ? _("Device") : _("Process"),
                                    spans, instants, samples, G_LIST_MODEL (tracks));
      g_list_store_append (processes, row);
    }

  return G_LIST_MODEL (g_steal_pointer (&processes));
}

static GListModel *
create_child_model (gpointer item,
                    gpointer user_data)
{
  GListModel *children = chrono_summary_row_get_children (CHRONO_SUMMARY_ROW (item));

  /* A device with no tracks gets no expander. */
  if (children == NULL || g_list_model_get_n_items (children) == 0)
    return NULL;
  return g_object_ref (children);
}

static GtkWidget *
chip_new (const char *name,
          const char *value)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *count_label = gtk_label_new (value);

  gtk_widget_add_css_class (box, "kind-chip");
  gtk_widget_set_halign (box, GTK_ALIGN_START);
  gtk_widget_add_css_class (count_label, "dim-label");
  gtk_widget_add_css_class (count_label, "numeric");
  gtk_box_append (GTK_BOX (box), name_label);
  gtk_box_append (GTK_BOX (box), count_label);
  return box;
}

static GtkWidget *
kind_chip_new (const char *name,
               guint64     count)
{
  g_autofree char *count_text = chrono_format_count (count);
  return chip_new (name, count_text);
}

static void
clear_flow_box (GtkFlowBox *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (box))))
    gtk_flow_box_remove (box, child);
}

static gboolean
metric_value (JsonObject *summary,
              const char *key,
              gdouble    *value)
{
  JsonNode *node = json_object_get_member (summary, key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    *value = g_ascii_strtod (json_node_get_string (node), NULL);
  else
    *value = json_node_get_double (node);
  return TRUE;
}

/* Some versions write *_percent as fractions: when none is above 1, all
 * are taken to be. */
static gboolean
percents_are_fractions (JsonObject *summary)
{
  g_autoptr(GList) keys = json_object_get_members (summary);

  for (GList *l = keys; l != NULL; l = l->next)
    {
      gdouble v;

      if (g_str_has_suffix (l->data, "_percent") && metric_value (summary, l->data, &v) && v > 1.0)
        return FALSE;
    }
  return TRUE;
}

/* A metric of the Neuron profiler's summary, as people read it. */
static char *
metric_text (JsonObject *summary,
             const char *key,
             char        unit,
             gboolean    fractions)
{
  gdouble v;

  if (!metric_value (summary, key, &v))
    return NULL;
  switch (unit)
    {
    case 's':
      return chrono_format_duration ((gint64) (v * 1e9 + 0.5));
    case '%':
      return g_strdup_printf ("%.1f %%", fractions ? v * 100.0 : v);
    default:
      return chrono_format_count ((guint64) MAX (v, 0));
    }
}

/* Engines, dependencies and the profiler's summary, when the trace has
 * accelerator instructions (a Neuron device profile). */
static void
show_metrics (ChronoTraceSummary *self)
{
  static const struct { const char *key; const char *label; char unit; } metrics[] = {
    { "total_time", N_("Device time"), 's' },
    { "total_active_time", N_("Active time"), 's' },
    { "mfu_estimated_percent", N_("MFU"), '%' },
    { "hfu_estimated_percent", N_("HFU"), '%' },
    { "mbu_estimated_percent", N_("MBU"), '%' },
    { "hardware_flops", N_("Hardware FLOPs"), 'n' },
    { "model_flops", N_("Model FLOPs"), 'n' },
  };
  const ChronoLoadStats *stats = chrono_trace_get_stats (self->trace);
  g_autoptr(JsonNode) summary = chrono_trace_get_metadata (self->trace, "neuron_summary");
  g_autoptr(GList) engines = g_list_sort (g_hash_table_get_keys (stats->engines), (GCompareFunc) g_strcmp0);
  gboolean any = FALSE;

  clear_flow_box (self->metrics_box);
  for (GList *l = engines; l != NULL; l = l->next)
    {
      gtk_flow_box_append (self->metrics_box,
                           kind_chip_new (l->data, GPOINTER_TO_SIZE (g_hash_table_lookup (stats->engines, l->data))));
      any = TRUE;
    }
  if (stats->dependencies > 0)
    {
      gtk_flow_box_append (self->metrics_box, kind_chip_new (_("Dependencies"), stats->dependencies));
      any = TRUE;
    }
  if (summary != NULL && JSON_NODE_HOLDS_OBJECT (summary))
    {
      JsonObject *o = json_node_get_object (summary);
      gboolean fractions = percents_are_fractions (o);

      for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
        {
          g_autofree char *text = metric_text (o, metrics[i].key, metrics[i].unit, fractions);

          if (text == NULL)
            continue;
          gtk_flow_box_append (self->metrics_box, chip_new (_(metrics[i].label), text));
          any = TRUE;
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->metrics_box), any);
}

/* The bytes of the files under PATH, a folder (a Parquet profile). */
static guint64
folder_size (const char *path)
{
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  g_autoptr(GFileEnumerator) children =
    g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                               G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  guint64 total = 0;
  GFileInfo *info;

  while (children != NULL && (info = g_file_enumerator_next_file (children, NULL, NULL)) != NULL)
    {
      g_autoptr(GFileInfo) owned = info;

      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          g_autofree char *child = g_build_filename (path, g_file_info_get_name (info), NULL);

          total += folder_size (child);
        }
      else if (g_file_info_get_file_type (info) == G_FILE_TYPE_REGULAR)
        total += g_file_info_get_size (info);
    }
  return total;
}

/* "kineto · 31.2 MB from a gzip file", "neuron-parquet · a folder of
 * 45.3 MB", "kineto · 8 files, 7.4 MB". */
static char *
describe_source (ChronoTrace *trace)
{
  const char *path = chrono_trace_get_path (trace);
  const char *compression = chrono_trace_get_compression (trace);
  guint n_parts = chrono_trace_get_n_parts (trace);
  guint64 bytes = chrono_trace_get_source_size (trace);
  g_autofree char *size = NULL;

  if (bytes == 0 && g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      size = chrono_format_bytes (folder_size (path));
      /* Translators: the trace's format, then the size of the folder it was read from */
      return g_strdup_printf (_("%s · a folder of %s"), chrono_trace_get_format (trace), size);
    }
  size = chrono_format_bytes (bytes);
  if (n_parts > 1)
    /* Translators: the trace's format, how many files it was read from, their size */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u file, %s", "%s · %u files, %s", n_parts),
                            chrono_trace_get_format (trace), n_parts, size);
  if (g_strcmp0 (compression, "none") != 0)
    /* Translators: the trace's format, its size, the compression of its file ("gzip") */
    return g_strdup_printf (_("%s · %s from a %s file"), chrono_trace_get_format (trace), size, compression);
  /* Translators: the trace's format and its size */
  return g_strdup_printf (_("%s · %s"), chrono_trace_get_format (trace), size);
}

/* Each fact a line: its name dimmed, what the trace says beside it. */
static void
show_facts (ChronoTraceSummary *self)
{
  g_autoptr(GArray) facts = chrono_trace_facts_new (self->trace);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->facts_grid))) != NULL)
    gtk_grid_remove (self->facts_grid, child);
  for (guint i = 0; i < facts->len; i++)
    {
      const ChronoTraceFact *fact = &g_array_index (facts, ChronoTraceFact, i);
      GtkWidget *name = gtk_label_new (fact->label);
      GtkWidget *value = gtk_label_new (fact->value);

      gtk_label_set_xalign (GTK_LABEL (name), 0);
      gtk_widget_set_valign (name, GTK_ALIGN_START);
      gtk_widget_add_css_class (name, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (value), 0);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (value), PANGO_WRAP_WORD_CHAR);
      gtk_widget_set_hexpand (value, TRUE);
      if (fact->missing)
        gtk_widget_add_css_class (value, "dim-label");
      gtk_grid_attach (self->facts_grid, name, 0, i, 1, 1);
      gtk_grid_attach (self->facts_grid, value, 1, i, 1, 1);
    }
}

static void
append_warning (ChronoTraceSummary *self,
                GtkWidget          *row,
                const char         *css_class)
{
  gtk_widget_add_css_class (row, css_class);
  gtk_box_append (self->warnings_box, row);
}

/* What the load lost, then, apart, what the format writes its own way and
 * the load read in full, which no banner shows. */
static void
show_warnings (ChronoTraceSummary *self)
{
  g_autoptr(GPtrArray) groups = chrono_warning_groups_new (self->trace);
  g_autoptr(GString) spoken = g_string_new (NULL);
  gboolean quirks = FALSE;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->warnings_box))) != NULL)
    gtk_box_remove (self->warnings_box, child);
  if (chrono_trace_get_stats (self->trace)->truncated)
    append_warning (self, chrono_warning_label_new (_("The file is incomplete: this is what it holds up to where it ends.")),
                    "warning");
  for (guint i = 0; i < groups->len; i++)
    {
      const ChronoWarningGroup *group = g_ptr_array_index (groups, i);

      /* The quirks come last. */
      if (group->quirk && !quirks)
        {
          GtkWidget *heading = chrono_warning_label_new (_("Written this way by the profiler, and read in full:"));

          gtk_widget_set_margin_top (heading, gtk_widget_get_first_child (GTK_WIDGET (self->warnings_box)) ? 6 : 0);
          append_warning (self, heading, "heading");
          quirks = TRUE;
        }
      append_warning (self, chrono_warning_row_new (group, spoken), group->quirk ? "dim-label" : "warning");
    }
  gtk_widget_set_visible (GTK_WIDGET (self->warnings_box),
                          gtk_widget_get_first_child (GTK_WIDGET (self->warnings_box)) != NULL);
}

static void
show_trace (ChronoTraceSummary *self)
{
  ChronoTrace *trace = self->trace;
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  g_autofree char *basename = g_path_get_basename (chrono_trace_get_path (trace));
  g_autofree char *subtitle = describe_source (trace);
  g_autofree char *duration = NULL;
  GtkTreeListModel *tree;
  GListModel *rows;
  guint n_empty = 0;

  gtk_label_set_label (self->title_label, basename);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), chrono_trace_get_path (trace));
  gtk_label_set_label (self->subtitle_label, subtitle);
  show_facts (self);

  duration = chrono_format_duration (chrono_trace_get_end_ns (trace) - chrono_trace_get_start_ns (trace));
  gtk_label_set_label (self->duration_label, duration);
  set_count (self->events_label, stats->events);
  set_count (self->spans_label, stats->spans + stats->async_spans);
  rows = build_rows (trace, &n_empty);
  set_count (self->processes_label, chrono_trace_get_n_processes (trace) - n_empty);
  if (n_empty > 0)
    {
      g_autofree char *count = chrono_format_count (chrono_trace_get_n_processes (trace) - n_empty);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u without events, not listed)",
                                                            "%s (and %u without events, not listed)", n_empty),
                                               count, n_empty);

      gtk_label_set_label (self->processes_label, text);
    }
  set_count (self->tracks_label, chrono_trace_get_n_tracks (trace));

  clear_flow_box (self->kinds_box);
  for (guint k = 0; k < CHRONO_N_KINDS; k++)
    if (stats->kinds[k] > 0)
      gtk_flow_box_append (self->kinds_box, kind_chip_new (kind_label (k), stats->kinds[k]));
  show_metrics (self);

  show_warnings (self);

  tree = gtk_tree_list_model_new (rows, FALSE, TRUE, create_child_model, NULL, NULL);
  gtk_column_view_set_model (self->tracks_view,
                             GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (tree))));
}

static void
chrono_trace_summary_dispose (GObject *object)
{
  ChronoTraceSummary *self = CHRONO_TRACE_SUMMARY (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_TRACE_SUMMARY);
  /* Disposing the template leaves children without an id in place. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_trace_summary_parent_class)->dispose (object);
}

static void
chrono_trace_summary_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  ChronoTraceSummary *self = CHRONO_TRACE_SUMMARY (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_trace_summary_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  ChronoTraceSummary *self = CHRONO_TRACE_SUMMARY (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      chrono_trace_summary_set_trace (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_trace_summary_class_init (ChronoTraceSummaryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_trace_summary_dispose;
  object_class->get_property = chrono_trace_summary_get_property;
  object_class->set_property = chrono_trace_summary_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The row type is only named in the list factories' XML. */
  g_type_ensure (CHRONO_TYPE_SUMMARY_ROW);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tracesummary");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-trace-summary.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, facts_grid);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, duration_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, events_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, spans_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, processes_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, tracks_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, kinds_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, metrics_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, warnings_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoTraceSummary, tracks_view);
}

static void
chrono_trace_summary_init (ChronoTraceSummary *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

void
chrono_trace_summary_set_trace (ChronoTraceSummary *self,
                                ChronoTrace        *trace)
{
  g_return_if_fail (CHRONO_IS_TRACE_SUMMARY (self));
  g_return_if_fail (trace == NULL || CHRONO_IS_TRACE (trace));

  if (!g_set_object (&self->trace, trace))
    return;
  if (trace != NULL)
    show_trace (self);
  else
    gtk_column_view_set_model (self->tracks_view, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}
