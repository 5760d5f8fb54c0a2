/* chrono-neuron-figures.c: a window's figures as rows of the NeuronCores page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "chrono-format.h"
#include "chrono-neuron-figures.h"

/* Ours and the profiler's may differ by this share before a mark says so,
 * as in the report. */
#define DIFFERENCE_TOLERANCE 0.02

gdouble
chrono_neuron_figures_number (JsonObject *object,
                              const char *key)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  if (node == NULL || json_node_get_value_type (node) == G_TYPE_INVALID || JSON_NODE_HOLDS_NULL (node))
    return NAN;
  return json_node_get_double (node);
}

void
chrono_neuron_figures_clear (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

GtkWidget *
chrono_neuron_figures_row_new (const char *title,
                               const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  return row;
}

static GtkWidget *
value_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "numeric");
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

typedef enum {
  UNIT_PERCENT,
  UNIT_DURATION,
  UNIT_RATIO,    /* FLOP per byte */
  UNIT_COUNT,
  UNIT_BYTES,
} Unit;

static char *
format_value (gdouble value,
              Unit    unit)
{
  if (!isfinite (value))
    return g_strdup (_("unknown"));
  switch (unit)
    {
    case UNIT_PERCENT:
      return g_strdup_printf (_("%.1f %%"), value);
    case UNIT_DURATION:
      return chrono_format_duration ((gint64) value);
    case UNIT_RATIO:
      return g_strdup_printf (_("%.1f FLOP/B"), value);
    case UNIT_COUNT:
      return chrono_format_count ((guint64) value);
    case UNIT_BYTES:
    default:
      return chrono_format_bytes ((guint64) value);
    }
}

/* A figure, the profiler's beside it when it has one, and a mark where
 * the two differ by more than the tolerance. */
static void
add_figure (GtkListBox *list,
            const char *title,
            const char *explanation,
            gdouble     ours,
            gdouble     theirs,
            Unit        unit)
{
  g_autofree char *ours_text = format_value (ours, unit);
  g_autofree char *theirs_text = format_value (theirs, unit);
  g_autofree char *subtitle = NULL;
  GtkWidget *row;

  /* Translators: the profiler's own value of a figure, under ours */
  subtitle = isfinite (theirs) ? g_strdup_printf (_("%s · profiler: %s"), explanation, theirs_text)
                               : g_strdup (explanation);
  row = chrono_neuron_figures_row_new (title, subtitle);
  if (isfinite (ours) && isfinite (theirs) &&
      fabs (ours - theirs) > DIFFERENCE_TOLERANCE * MAX (fabs (ours), fabs (theirs)))
    {
      GtkWidget *mark = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      g_autofree char *why = g_strdup_printf (_("Differs from the profiler's %s by %+.1f %%"), theirs_text,
                                              theirs != 0 ? 100 * (ours - theirs) / fabs (theirs) : 100.0);

      gtk_widget_add_css_class (mark, "warning");
      gtk_widget_set_tooltip_text (mark, why);
      gtk_accessible_update_property (GTK_ACCESSIBLE (mark), GTK_ACCESSIBLE_PROPERTY_LABEL, why, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), mark);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (ours_text));
  gtk_list_box_append (list, row);
}

void
chrono_neuron_figures_fill (GtkListBox *list,
                            JsonObject *w,
                            JsonObject *p)
{
  g_autofree char *ridge = format_value (chrono_neuron_figures_number (w, "ridge_flops_per_byte"), UNIT_RATIO);
  g_autofree char *intensity = NULL;

  chrono_neuron_figures_clear (list);
  add_figure (list, _("Total time"), _("The window the figures are of"), chrono_neuron_figures_number (w, "total_time_ns"),
              chrono_neuron_figures_number (p, "total_time_ns"), UNIT_DURATION);
  add_figure (list, _("HFU"), _("Hardware FLOPs utilisation: every FLOP the Tensor engine did, over its peak"),
              chrono_neuron_figures_number (w, "hfu_percent"), chrono_neuron_figures_number (p, "hfu_percent"), UNIT_PERCENT);
  add_figure (list, _("MFU"), _("Model FLOPs utilisation: without transposes"), chrono_neuron_figures_number (w, "mfu_percent"),
              chrono_neuron_figures_number (p, "mfu_percent"), UNIT_PERCENT);
  add_figure (list, _("MBU"), _("Memory bandwidth utilisation: HBM bytes over one stack's bandwidth"),
              chrono_neuron_figures_number (w, "mbu_percent"), chrono_neuron_figures_number (p, "mbu_percent"), UNIT_PERCENT);
  /* Translators: %s is the ridge point, "218.8 FLOP/B" */
  intensity = chrono_neuron_figures_number (w, "arithmetic_intensity") < chrono_neuron_figures_number (w, "ridge_flops_per_byte")
              ? g_strdup_printf (_("Matmul FLOPs per HBM byte: under the ridge point, %s, so memory bound"), ridge)
              : g_strdup_printf (_("Matmul FLOPs per HBM byte: over the ridge point, %s, so compute can bind"), ridge);
  add_figure (list, _("Arithmetic intensity"), intensity, chrono_neuron_figures_number (w, "arithmetic_intensity"),
              chrono_neuron_figures_number (p, "arithmetic_intensity"), UNIT_RATIO);
  if (isfinite (chrono_neuron_figures_number (w, "throttled_active_percent")))
    add_figure (list, _("Throttled"), _("The Tensor engine's active time lost to throttling"),
                chrono_neuron_figures_number (w, "throttled_active_percent"), NAN, UNIT_PERCENT);
}

void
chrono_neuron_figures_fill_engines (GtkListBox *list,
                                    JsonObject *w)
{
  JsonArray *engines = w != NULL ? json_object_get_array_member (w, "engines") : NULL;

  chrono_neuron_figures_clear (list);
  for (guint i = 0; engines != NULL && i < json_array_get_length (engines); i++)
    {
      JsonObject *e = json_array_get_object_element (engines, i);
      gdouble share = chrono_neuron_figures_number (e, "active_share");
      g_autofree char *count = chrono_format_count ((guint64) chrono_neuron_figures_number (e, "instructions"));
      /* Translators: an engine's instruction count */
      g_autofree char *subtitle = g_strdup_printf (_("%s instructions"), count);
      g_autofree char *text = format_value (100 * share, UNIT_PERCENT);
      GtkWidget *row = chrono_neuron_figures_row_new (json_object_get_string_member (e, "engine"), subtitle);
      GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);

      gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), isfinite (share) ? CLAMP (share, 0, 1) : 0);
      gtk_widget_set_size_request (bar, 160, -1);
      gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), bar);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (text));
      gtk_list_box_append (list, row);
    }
}

static void
add_plain (GtkListBox *list,
           const char *title,
           const char *subtitle,
           gdouble     value,
           Unit        unit)
{
  g_autofree char *text = format_value (value, unit);
  GtkWidget *row = chrono_neuron_figures_row_new (title, subtitle);

  adw_action_row_add_suffix (ADW_ACTION_ROW (row), value_label (text));
  gtk_list_box_append (list, row);
}

void
chrono_neuron_figures_fill_dma (GtkListBox *list,
                                JsonObject *w)
{
  JsonObject *dma = w != NULL ? json_object_get_object_member (w, "dma") : NULL;
  g_autofree char *small = g_strdup_printf (_("Transfers under %s, which cost their setup more than their bytes"),
                                            "4 KiB");

  chrono_neuron_figures_clear (list);
  add_plain (list, _("Transfers"), NULL, chrono_neuron_figures_number (dma, "transfers"), UNIT_COUNT);
  add_plain (list, _("Bytes moved"), NULL, chrono_neuron_figures_number (dma, "bytes"), UNIT_BYTES);
  add_plain (list, _("Average transfer"), NULL, chrono_neuron_figures_number (dma, "average_bytes"), UNIT_BYTES);
  add_plain (list, _("Small transfers"), small, 100 * chrono_neuron_figures_number (dma, "small_share"), UNIT_PERCENT);
  add_plain (list, _("HBM read"), NULL, chrono_neuron_figures_number (w, "hbm_read_bytes"), UNIT_BYTES);
  add_plain (list, _("HBM written"), NULL, chrono_neuron_figures_number (w, "hbm_write_bytes"), UNIT_BYTES);
  add_plain (list, _("Spilled"), _("State buffer saved to HBM"), chrono_neuron_figures_number (w, "spill_save_bytes"), UNIT_BYTES);
  add_plain (list, _("Reloaded"), _("Spills read back"), chrono_neuron_figures_number (w, "spill_reload_bytes"), UNIT_BYTES);
}
