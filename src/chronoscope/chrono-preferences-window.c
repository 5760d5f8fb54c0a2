/* chrono-preferences-window.c: the application's preferences: the
 * thresholds of the analysis, one row per key of its settings schema
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-analysis-settings.h"
#include "chrono-preferences-window.h"

struct _ChronoPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;   /* the "analysis" child */
  AdwPreferencesGroup  *thresholds_group;
  GtkWidget            *unsaved_group;
  gboolean              saved;
};

G_DEFINE_FINAL_TYPE (ChronoPreferencesWindow, chrono_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_SAVED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The unit of a key, from the end of its name. */
static const char *
get_unit (const char *key)
{
  if (g_str_has_suffix (key, "-us"))
    return _("µs");
  if (g_str_has_suffix (key, "-ns"))
    return _("ns");
  if (g_str_has_suffix (key, "-percent"))
    return "%";
  if (g_str_has_suffix (key, "-bytes"))
    return _("bytes");
  if (g_str_has_suffix (key, "-kernels"))
    return _("kernels");
  return NULL;
}

/* The summary comes from the schema's XML, which may not be installed. */
static const char *
get_summary (GSettingsSchemaKey *key)
{
  const char *summary = g_settings_schema_key_get_summary (key);

  return summary != NULL ? summary : g_settings_schema_key_get_name (key);
}

static int
compare_summaries (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  GSettingsSchema *schema = user_data;
  g_autoptr(GSettingsSchemaKey) ka = g_settings_schema_get_key (schema, *(char * const *) a);
  g_autoptr(GSettingsSchemaKey) kb = g_settings_schema_get_key (schema, *(char * const *) b);

  return g_utf8_collate (get_summary (ka), get_summary (kb));
}

static GtkWidget *
create_row (ChronoPreferencesWindow *self,
            GSettingsSchema         *schema,
            const char              *name)
{
  g_autoptr(GSettingsSchemaKey) key = g_settings_schema_get_key (schema, name);
  g_autoptr(GVariant) range = g_settings_schema_key_get_range (key);
  g_autoptr(GVariant) limits = NULL;
  const char *type;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin;
  const char *unit = get_unit (name);
  guint32 min = 0, max = G_MAXUINT32;

  g_variant_get (range, "(&sv)", &type, &limits);
  if (g_str_equal (type, "range"))
    g_variant_get (limits, "(uu)", &min, &max);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), get_summary (key));
  if (g_settings_schema_key_get_description (key) != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), g_settings_schema_key_get_description (key));
  spin = gtk_spin_button_new_with_range (min, max, 1);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  /* One width for all, so the units line up. */
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 10);
  gtk_widget_set_name (spin, name);
  g_settings_bind (self->settings, name, spin, "value", G_SETTINGS_BIND_DEFAULT);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  if (unit != NULL)
    {
      GtkWidget *label = gtk_label_new (unit);

      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_set_size_request (label, 48, -1);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
    }
  return row;
}

static void
reset_clicked_cb (ChronoPreferencesWindow *self)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (self->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i]; i++)
    g_settings_reset (self->settings, keys[i]);
}

static void
chrono_preferences_window_constructed (GObject *object)
{
  ChronoPreferencesWindow *self = CHRONO_PREFERENCES_WINDOW (object);
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  G_OBJECT_CLASS (chrono_preferences_window_parent_class)->constructed (object);

  g_object_get (self->settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  g_qsort_with_data (keys, g_strv_length (keys), sizeof (char *), compare_summaries, schema);
  for (guint i = 0; keys[i]; i++)
    adw_preferences_group_add (self->thresholds_group, create_row (self, schema, keys[i]));
}

static void
chrono_preferences_window_dispose (GObject *object)
{
  ChronoPreferencesWindow *self = CHRONO_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (chrono_preferences_window_parent_class)->dispose (object);
}

static void
chrono_preferences_window_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  ChronoPreferencesWindow *self = CHRONO_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_settings_get_child (g_value_get_object (value), CHRONO_ANALYSIS_SCHEMA_CHILD);
      break;
    case PROP_SAVED:
      self->saved = g_value_get_boolean (value);
      gtk_widget_set_visible (self->unsaved_group, !self->saved);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_preferences_window_class_init (ChronoPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = chrono_preferences_window_constructed;
  object_class->dispose = chrono_preferences_window_dispose;
  object_class->set_property = chrono_preferences_window_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* FALSE when no schema is installed: the changes last for the session. */
  properties[PROP_SAVED] =
    g_param_spec_boolean ("saved", NULL, NULL, TRUE,
                          G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/io/github/chronoscope/Chronoscope/chrono-preferences-window.ui");
  gtk_widget_class_bind_template_child (GTK_WIDGET_CLASS (klass), ChronoPreferencesWindow, thresholds_group);
  gtk_widget_class_bind_template_child (GTK_WIDGET_CLASS (klass), ChronoPreferencesWindow, unsaved_group);
  gtk_widget_class_bind_template_callback (GTK_WIDGET_CLASS (klass), reset_clicked_cb);
}

static void
chrono_preferences_window_init (ChronoPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
chrono_preferences_window_new (GSettings *settings,
                               gboolean   saved)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (CHRONO_TYPE_PREFERENCES_WINDOW, "settings", settings, "saved", saved, NULL);
}
