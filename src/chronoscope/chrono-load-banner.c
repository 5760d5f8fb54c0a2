/* chrono-load-banner.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "chrono-load-banner.h"
#include "chrono-warning-row.h"

/* Messages shown; the rest are counted, and listed on the Summary page
 * with the quirks, which no banner shows. */
#define MAX_MESSAGES 5

struct _ChronoLoadBanner
{
  GtkWidget        parent_instance;

  ChronoTrace     *trace;
  ChronoLoadState  state;
  GtkWidget       *box;
  GtkImage        *icon;
  GtkLabel        *title_label;
  GtkLabel        *details_label;
  GtkBox          *messages_box;
};

G_DEFINE_FINAL_TYPE (ChronoLoadBanner, chrono_load_banner, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Whether anything of the trace would be drawn: spans, instants or
 * counter samples. */
static gboolean
has_content (ChronoTrace *trace)
{
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      if (track->n_spans > 0 || track->n_instants > 0 || track->n_samples > 0)
        return TRUE;
    }
  return FALSE;
}

static ChronoLoadState
get_state (ChronoTrace *trace,
           GPtrArray   *groups)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);

  if (!has_content (trace))
    return CHRONO_LOAD_EMPTY;
  if (stats->truncated)
    return CHRONO_LOAD_TRUNCATED;
  if (stats->dropped > 0 || chrono_warning_groups_must_know (groups))
    return CHRONO_LOAD_LOSSY;
  return CHRONO_LOAD_COMPLETE;
}

/* What was lost and why, in the load's own account; the importer's
 * warnings are the rows below. */
static char *
describe (ChronoTrace     *trace,
          ChronoLoadState  state)
{
  const ChronoLoadStats *stats = chrono_trace_get_stats (trace);
  g_autoptr(GString) text = g_string_new (NULL);

  switch (state)
    {
    case CHRONO_LOAD_EMPTY:
      g_string_append (text, _("The file was read, but it holds no spans, instants or counters that the "
                               "timeline shows, so there is nothing to analyse either."));
      if (stats->truncated)
        g_string_append_printf (text, " %s", _("It is also cut short."));
      break;
    case CHRONO_LOAD_TRUNCATED:
      g_string_append (text, _("What the file holds up to where it ends is shown; everything after is lost, "
                               "so the findings may miss work that was recorded late, such as device "
                               "events a profiler writes at the end."));
      break;
    case CHRONO_LOAD_LOSSY:
      break;
    case CHRONO_LOAD_COMPLETE:
      g_return_val_if_reached (NULL);
    }
  if (stats->dropped > 0)
    {
      if (text->len > 0)
        g_string_append_c (text, ' ');
      g_string_append_printf (text,
                              ngettext ("%" PRIu64 " event is not shown.",
                                        "%" PRIu64 " events are not shown.", stats->dropped),
                              stats->dropped);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
fill_messages (ChronoLoadBanner *self,
               GPtrArray        *groups,
               GString          *spoken)
{
  GtkWidget *child;
  guint shown = 0, more = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->messages_box))) != NULL)
    gtk_box_remove (self->messages_box, child);
  for (guint i = 0; i < groups->len; i++)
    {
      const ChronoWarningGroup *group = g_ptr_array_index (groups, i);

      if (group->quirk)
        continue;
      if (shown++ < MAX_MESSAGES)
        gtk_box_append (self->messages_box, chrono_warning_row_new (group, spoken));
      else
        more++;
    }
  if (more > 0)
    {
      g_autofree char *line = g_strdup_printf (ngettext ("%u more message is on the Summary page.",
                                                         "%u more messages are on the Summary page.", more),
                                               more);
      GtkWidget *label = chrono_warning_label_new (line);

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->messages_box, label);
      g_string_append_printf (spoken, "\n%s", line);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->messages_box), shown > 0);
}

static void
update (ChronoLoadBanner *self)
{
  static const struct {
    const char *title;
    const char *icon;
    const char *css_class;
  } looks[] = {
    [CHRONO_LOAD_LOSSY] = { N_("Some of the Trace Is Not Shown"), "dialog-information-symbolic", "lossy" },
    [CHRONO_LOAD_TRUNCATED] = { N_("The File Is Cut Short"), "dialog-warning-symbolic", "truncated" },
    [CHRONO_LOAD_EMPTY] = { N_("Nothing in This Trace to Show"), "dialog-warning-symbolic", "empty" },
  };
  g_autoptr(GPtrArray) groups = chrono_warning_groups_new (self->trace);
  g_autofree char *details = NULL;
  g_autoptr(GString) spoken = NULL;

  self->state = get_state (self->trace, groups);
  gtk_widget_set_visible (GTK_WIDGET (self), self->state != CHRONO_LOAD_COMPLETE);
  if (self->state == CHRONO_LOAD_COMPLETE)
    return;
  details = describe (self->trace, self->state);
  spoken = g_string_new (details);
  gtk_image_set_from_icon_name (self->icon, looks[self->state].icon);
  gtk_label_set_label (self->title_label, _(looks[self->state].title));
  gtk_label_set_label (self->details_label, details);
  gtk_widget_set_visible (GTK_WIDGET (self->details_label), details[0] != '\0');
  fill_messages (self, groups, spoken);
  gtk_widget_add_css_class (GTK_WIDGET (self), looks[self->state].css_class);
  /* Read out as one message. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _(looks[self->state].title),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  spoken->str + (details[0] == '\0' && spoken->len > 0 ? 1 : 0),
                                  -1);
}

static void
chrono_load_banner_constructed (GObject *object)
{
  G_OBJECT_CLASS (chrono_load_banner_parent_class)->constructed (object);
  update (CHRONO_LOAD_BANNER (object));
}

static void
chrono_load_banner_dispose (GObject *object)
{
  ChronoLoadBanner *self = CHRONO_LOAD_BANNER (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_LOAD_BANNER);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (chrono_load_banner_parent_class)->dispose (object);
}

static void
chrono_load_banner_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  ChronoLoadBanner *self = CHRONO_LOAD_BANNER (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_load_banner_class_init (ChronoLoadBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = chrono_load_banner_constructed;
  object_class->dispose = chrono_load_banner_dispose;
  object_class->set_property = chrono_load_banner_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, CHRONO_TYPE_TRACE,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "loadbanner");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_ALERT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-load-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoLoadBanner, box);
  gtk_widget_class_bind_template_child (widget_class, ChronoLoadBanner, icon);
  gtk_widget_class_bind_template_child (widget_class, ChronoLoadBanner, title_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoLoadBanner, details_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoLoadBanner, messages_box);
}

static void
chrono_load_banner_init (ChronoLoadBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
chrono_load_banner_new (ChronoTrace *trace)
{
  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  return g_object_new (CHRONO_TYPE_LOAD_BANNER, "trace", trace, NULL);
}

ChronoLoadState
chrono_load_banner_get_state (ChronoLoadBanner *self)
{
  g_return_val_if_fail (CHRONO_IS_LOAD_BANNER (self), CHRONO_LOAD_COMPLETE);
  return self->state;
}
