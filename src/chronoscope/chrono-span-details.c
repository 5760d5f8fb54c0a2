/* chrono-span-details.c: everything about the selected span, beside the
 * timeline: where and when it ran, its args and the spans linked to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "chrono-format.h"
#include "chrono-neuron-execution.h"
#include "chrono-span-details.h"

/* A linked span is zoomed to this fraction of the view. */
#define LINK_ZOOM_FRACTION 0.1
/* Spans shorter than this are zoomed to as if they lasted this long. */
#define LINK_ZOOM_MIN_NS   1000

struct _ChronoSpanDetails
{
  GtkWidget       parent_instance;

  ChronoTimeline *timeline;
  ChronoSpanRef   span;
  gboolean        has_span;

  GtkLabel       *name_label;
  GtkGrid        *facts_grid;
  GtkWidget      *args_heading;
  GtkGrid        *args_grid;
  GtkWidget      *links_heading;
  GtkBox         *links_box;
};

G_DEFINE_FINAL_TYPE (ChronoSpanDetails, chrono_span_details, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TIMELINE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static ChronoTrace *
get_trace (ChronoSpanDetails *self)
{
  return chrono_timeline_get_trace (self->timeline);
}

static const char *
get_span_name (ChronoTrace   *trace,
               ChronoSpanRef  span)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, span.track);

  return chrono_trace_get_string (trace, chrono_track_get_name (track, span.index));
}

static void
remove_children (GtkWidget *widget)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    gtk_widget_unparent (child);
}

static void
add_row (GtkGrid    *grid,
         const char *key,
         const char *value)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value_label = gtk_label_new (value);
  int row = 0;

  /* Rows are only ever appended: count the ones already there. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child;
       child = gtk_widget_get_next_sibling (child))
    row++;
  row /= 2;

  gtk_label_set_xalign (GTK_LABEL (key_label), 0);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0);
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_grid_attach (grid, key_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
}

static void
show_args (ChronoSpanDetails *self)
{
  ChronoTrace *trace = get_trace (self);
  const ChronoTrack *track = chrono_trace_get_track (trace, self->span.track);
  g_autoptr(GPtrArray) args = chrono_trace_dup_args (trace, chrono_track_get_args (track, self->span.index));

  remove_children (GTK_WIDGET (self->args_grid));
  for (guint i = 0; i < args->len; i++)
    {
      const ChronoArg *arg = g_ptr_array_index (args, i);
      add_row (self->args_grid, arg->key, arg->text);
    }
  gtk_widget_set_visible (self->args_heading, args->len > 0);
}

static void
link_clicked_cb (GtkButton         *button,
                 ChronoSpanDetails *self)
{
  ChronoSpanRef span;
  const ChronoTrack *track;
  gint64 dur, centre, half;

  span.track = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "track"));
  span.index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  track = chrono_trace_get_track (get_trace (self), span.track);
  dur = MAX (chrono_track_get_dur (track, span.index), LINK_ZOOM_MIN_NS);
  centre = track->start[span.index] + chrono_track_get_dur (track, span.index) / 2;
  half = (gint64) (dur / LINK_ZOOM_FRACTION / 2);

  chrono_timeline_select (self->timeline, &span);
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (self->timeline),
                                 centre - half, centre + half);
  chrono_span_details_show_span (self, &span);
}

static void
add_link (ChronoSpanDetails *self,
          const char        *caption,
          ChronoSpanRef      partner)
{
  ChronoTrace *trace = get_trace (self);
  GtkWidget *caption_label = gtk_label_new (caption);
  GtkWidget *name_label = gtk_label_new (get_span_name (trace, partner));
  GtkWidget *button = gtk_button_new ();
  const ChronoTrack *track = chrono_trace_get_track (trace, partner.track);

  gtk_label_set_xalign (GTK_LABEL (caption_label), 0);
  gtk_widget_add_css_class (caption_label, "dim-label");
  gtk_widget_add_css_class (caption_label, "caption");
  gtk_box_append (self->links_box, caption_label);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_button_set_child (GTK_BUTTON (button), name_label);
  gtk_widget_set_tooltip_text (button, chrono_trace_get_string (trace, track->display_name));
  gtk_widget_add_css_class (button, "linked-event");
  g_object_set_data (G_OBJECT (button), "track", GUINT_TO_POINTER (partner.track));
  g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (partner.index));
  g_signal_connect (button, "clicked", G_CALLBACK (link_clicked_cb), self);
  gtk_box_append (self->links_box, button);
}

static gboolean
span_ref_equal (ChronoSpanRef a,
                ChronoSpanRef b)
{
  return a.track == b.track && a.index == b.index;
}

typedef struct {
  ChronoSpanRef  partner;
  ChronoFlowType type;
  gboolean       outgoing;
} Link;

/* In a Neuron profile folder, the execution the span ran in or is part
 * of, the host call that launched it and, from the host, its first
 * instruction on the device. */
static guint
add_execution_links (ChronoSpanDetails *self)
{
  ChronoTrace *trace = get_trace (self);
  const ChronoTrack *track = chrono_trace_get_track (trace, self->span.track);
  ChronoNeuronExecution execution;
  ChronoSpanRef partner;
  guint n = 0;

  if (!chrono_neuron_execution_find (trace, self->span, &execution))
    return 0;
  if (!span_ref_equal (execution.running, self->span) && ++n)
    add_link (self, _("Runs in execution"), execution.running);
  if (chrono_neuron_execution_launcher (trace, &execution, &partner) && !span_ref_equal (partner, self->span) && ++n)
    add_link (self, _("Execution launched by"), partner);
  if (!chrono_trace_get_process (trace, track->process)->is_device &&
      chrono_neuron_execution_first_instruction (trace, &execution, &partner) && ++n)
    {
      GtkWidget *button = gtk_button_new_with_label (_("Show Device Instructions"));

      add_link (self, _("Its instructions, from the first"), partner);
      gtk_widget_set_tooltip_text (button, _("The execution zoomed to on the timeline, its instructions marked over the core that ran them (X)"));
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(uu)", self->span.track, self->span.index);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "document.show-execution");
      gtk_box_append (self->links_box, button);
    }
  return n;
}

/* A Neuron instruction compiled from an HLO operator: a way to that
 * operator's row and all its instructions. */
static guint
add_operator_link (ChronoSpanDetails *self)
{
  ChronoTrace *trace = get_trace (self);
  const ChronoTrack *track = chrono_trace_get_track (trace, self->span.track);
  g_autofree char *hlo_name = NULL;
  GtkWidget *button;

  if (track->kind[self->span.index] != CHRONO_KIND_INSTRUCTION)
    return 0;
  hlo_name = chrono_trace_dup_arg (trace, chrono_track_get_args (track, self->span.index), "hlo_name");
  if (hlo_name == NULL)
    return 0;
  button = gtk_button_new_with_label (_("Show Its Operator"));
  gtk_widget_set_tooltip_text (button, _("Its operator in the Operators tab, all its instructions marked"));
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "(uu)", self->span.track, self->span.index);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "document.show-operator");
  gtk_box_append (self->links_box, button);
  return 1;
}

static void
show_links (ChronoSpanDetails *self)
{
  ChronoTrace *trace = get_trace (self);
  g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (Link));

  remove_children (GTK_WIDGET (self->links_box));
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, i);
      gboolean outgoing = span_ref_equal (flow->from, self->span);
      Link link = { outgoing ? flow->to : flow->from, flow->type, outgoing };
      guint j;

      if (!outgoing && !span_ref_equal (flow->to, self->span))
        continue;
      /* Profilers often draw a flow arrow along a launch too: list the
       * partner once, as the launch. */
      for (j = 0; j < links->len; j++)
        if (span_ref_equal (g_array_index (links, Link, j).partner, link.partner))
          break;
      if (j == links->len)
        g_array_append_val (links, link);
      else if (link.type == CHRONO_FLOW_LAUNCH)
        g_array_index (links, Link, j) = link;
    }

  for (guint i = 0; i < links->len; i++)
    {
      const Link *link = &g_array_index (links, Link, i);
      const ChronoTrack *track = chrono_trace_get_track (trace, link->partner.track);
      g_autofree char *caption = NULL;

      if (link->type == CHRONO_FLOW_DEPENDENCY)
        caption = g_strdup (link->outgoing ? _("Needed by") : _("Depends on"));
      else if (link->type == CHRONO_FLOW_SEMAPHORE)
        caption = g_strdup (link->outgoing ? _("Semaphore awaited by") : _("Waits on semaphore from"));
      else if (link->type != CHRONO_FLOW_LAUNCH)
        caption = g_strdup (link->outgoing ? _("Flow to") : _("Flow from"));
      else if (link->outgoing)
        /* Translators: the kind of GPU work, "Launched kernel" */
        caption = g_strdup_printf (_("Launched %s"),
                                   chrono_kind_to_string (track->kind[link->partner.index]));
      else
        caption = g_strdup (_("Launched by"));
      add_link (self, caption, link->partner);
    }
  gtk_widget_set_visible (self->links_heading, links->len + add_execution_links (self) + add_operator_link (self) > 0);
}

#define ZERO_WIDTH_SPACE "\xe2\x80\x8b"

/* The seams of C++ names, after which a long one may wrap: "::", '<',
 * ',', '_' and '('. */
static gboolean
is_seam (const char *name,
         const char *p)
{
  return *p == '<' || *p == ',' || *p == '_' || *p == '(' || (*p == ':' && p > name && p[-1] == ':');
}

/* The span's name as the pane's title: it wraps at the seams of C++ names
 * (a zero-width space after each lets it) and never hyphenates, so
 * "vectorized_eleme-ntwise" is not read as two words. Copying a selection
 * of it gives the name as written, see copy_title_cb. */
static void
set_title (GtkLabel   *label,
           const char *name)
{
  g_autoptr(GString) text = g_string_sized_new (strlen (name) + 16);
  PangoAttrList *attrs = pango_attr_list_new ();

  for (const char *p = name; *p != '\0'; p++)
    {
      g_string_append_c (text, *p);
      if (is_seam (name, p) && p[1] != '\0' && p[1] != ':')
        g_string_append (text, ZERO_WIDTH_SPACE);
    }
  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_label (label, text->str);
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

/* Copies the selected part of the title without the spaces that let it
 * wrap. */
static void
copy_title_cb (GtkLabel *label)
{
  const char *text = gtk_label_get_label (label);
  g_autofree char *selected = NULL;
  g_auto(GStrv) parts = NULL;
  int start, end;

  g_signal_stop_emission_by_name (label, "copy-clipboard");
  if (!gtk_label_get_selection_bounds (label, &start, &end))
    return;
  selected = g_utf8_substring (text, start, end);
  parts = g_strsplit (selected, ZERO_WIDTH_SPACE, -1);
  g_free (selected);
  selected = g_strjoinv (NULL, parts);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (label)), selected);
}

static void
show_facts (ChronoSpanDetails *self)
{
  ChronoTrace *trace = get_trace (self);
  const ChronoTrack *track = chrono_trace_get_track (trace, self->span.track);
  const ChronoProcess *process = chrono_trace_get_process (trace, track->process);
  g_autofree char *start = chrono_format_duration (track->start[self->span.index] -
                                                   chrono_trace_get_start_ns (trace));
  g_autofree char *duration = chrono_format_duration (chrono_track_get_dur (track, self->span.index));

  set_title (self->name_label, get_span_name (trace, self->span));
  /* A screen reader names the pane after the span it shows. */
  {
    /* Translators: the accessible name of the details pane */
    g_autofree char *label = g_strdup_printf (_("Details of %s"), get_span_name (trace, self->span));

    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  }
  remove_children (GTK_WIDGET (self->facts_grid));
  add_row (self->facts_grid, _("Kind"), chrono_kind_to_string (track->kind[self->span.index]));
  add_row (self->facts_grid, _("Track"), chrono_trace_get_string (trace, track->display_name));
  add_row (self->facts_grid, _("Process"), chrono_trace_get_string (trace, process->display_name));
  /* Translators: a time from the start of the trace */
  add_row (self->facts_grid, _("Start"), start);
  add_row (self->facts_grid, _("Duration"), duration);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  ChronoSpanDetails *self = CHRONO_SPAN_DETAILS (widget);

  self->has_span = FALSE;
  gtk_widget_set_visible (widget, FALSE);
  chrono_timeline_select (self->timeline, NULL);
}

static void
chrono_span_details_dispose (GObject *object)
{
  ChronoSpanDetails *self = CHRONO_SPAN_DETAILS (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_SPAN_DETAILS);
  /* Disposing the template leaves children without an id in place. */
  remove_children (GTK_WIDGET (self));
  g_clear_object (&self->timeline);

  G_OBJECT_CLASS (chrono_span_details_parent_class)->dispose (object);
}

static void
chrono_span_details_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  ChronoSpanDetails *self = CHRONO_SPAN_DETAILS (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_span_details_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  ChronoSpanDetails *self = CHRONO_SPAN_DETAILS (object);

  switch (prop_id)
    {
    case PROP_TIMELINE:
      self->timeline = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_span_details_class_init (ChronoSpanDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_span_details_dispose;
  object_class->get_property = chrono_span_details_get_property;
  object_class->set_property = chrono_span_details_set_property;

  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, CHRONO_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "details.close", NULL, close_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "spandetails");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/chronoscope/Chronoscope/chrono-span-details.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, name_label);
  gtk_widget_class_bind_template_callback (widget_class, copy_title_cb);
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, facts_grid);
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, args_heading);
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, args_grid);
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, links_heading);
  gtk_widget_class_bind_template_child (widget_class, ChronoSpanDetails, links_box);
}

static void
chrono_span_details_init (ChronoSpanDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Nothing to show until a span is picked. */
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
chrono_span_details_new (ChronoTimeline *timeline)
{
  g_return_val_if_fail (CHRONO_IS_TIMELINE (timeline), NULL);

  return g_object_new (CHRONO_TYPE_SPAN_DETAILS, "timeline", timeline, NULL);
}

/**
 * chrono_span_details_get_timeline:
 *
 * Returns: (transfer none): the timeline whose spans this pane shows
 */
ChronoTimeline *
chrono_span_details_get_timeline (ChronoSpanDetails *self)
{
  g_return_val_if_fail (CHRONO_IS_SPAN_DETAILS (self), NULL);
  return self->timeline;
}

/**
 * chrono_span_details_get_span:
 * @span: (out) (optional): the span shown
 *
 * Returns: whether the pane shows a span
 */
gboolean
chrono_span_details_get_span (ChronoSpanDetails *self,
                              ChronoSpanRef     *span)
{
  g_return_val_if_fail (CHRONO_IS_SPAN_DETAILS (self), FALSE);

  if (self->has_span && span != NULL)
    *span = self->span;
  return self->has_span;
}

/**
 * chrono_span_details_show_span:
 *
 * Fills the pane with SPAN, a span of the timeline's trace, and shows it.
 */
void
chrono_span_details_show_span (ChronoSpanDetails   *self,
                               const ChronoSpanRef *span)
{
  ChronoTrace *trace;

  g_return_if_fail (CHRONO_IS_SPAN_DETAILS (self));
  g_return_if_fail (span != NULL);
  trace = get_trace (self);
  g_return_if_fail (span->track < chrono_trace_get_n_tracks (trace));
  g_return_if_fail (span->index < chrono_trace_get_track (trace, span->track)->n_spans);

  self->span = *span;
  self->has_span = TRUE;
  show_facts (self);
  show_args (self);
  show_links (self);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}
