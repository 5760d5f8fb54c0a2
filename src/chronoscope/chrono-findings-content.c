/* chrono-findings-content.c: what the findings panel shows, built from an
 * analysis: a finding's row, the summary over the list, each device's
 * breakdown, and the labels, times and colours they share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-findings-content.h"
#include "chrono-format.h"
#include "chrono-palette.h"
#include "chrono-profiler-overlap.h"
#include "chrono-share-bar.h"

/* Devices whose recoverable time opens the findings; the rest are counted. */
#define MAX_SUMMARY_DEVICES 4
/* Limitations told over the list; the rest are in the tooltip of the
 * line that counts them, so the summary stays short at any width. */
#define MAX_SUMMARY_LIMITATIONS 3
/* A wrapped line asks for no more width than this, in characters: it
 * would otherwise ask for its whole length on one line and widen the
 * panel over the timeline. */
#define LINE_WIDTH_CHARS 28

void
chrono_findings_remove_children (GtkWidget *widget)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (widget)) != NULL)
    {
      if (GTK_IS_LIST_BOX (widget))
        gtk_list_box_remove (GTK_LIST_BOX (widget), child);
      else if (GTK_IS_BOX (widget))
        gtk_box_remove (GTK_BOX (widget), child);
      else
        gtk_widget_unparent (child);
    }
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

GtkWidget *
chrono_findings_new_label (const char *text,
                           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), LINE_WIDTH_CHARS);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* A time of the trace, from its start, as the ruler shows it. */
char *
chrono_findings_format_time (ChronoTrace *trace,
                             gint64       ns)
{
  return chrono_format_duration (ns - chrono_trace_get_start_ns (trace));
}

char *
chrono_findings_format_span_name (ChronoTrace   *trace,
                                  ChronoSpanRef  span)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, span.track);

  return g_strdup (chrono_trace_get_string (trace, chrono_track_get_name (track, span.index)));
}

/* "median_gap_ns" = 12000 reads "median gap 12.0 µs". */
static char *
format_evidence (const ChronoEvidence *evidence)
{
  g_autofree char *key = g_strdup (evidence->key);
  g_autofree char *value = NULL;
  char *suffix = strrchr (key, '_');

  if (suffix != NULL && g_str_equal (suffix, "_ns"))
    value = chrono_format_duration ((gint64) evidence->value);
  else if (suffix != NULL && g_str_equal (suffix, "_bytes"))
    value = g_format_size ((guint64) evidence->value);
  else if (suffix != NULL && (g_str_equal (suffix, "_percent") || g_str_equal (suffix, "_pct")))
    value = g_strdup_printf ("%.0f%%", evidence->value);
  else
    {
      suffix = NULL;
      value = evidence->value == (gint64) evidence->value
        ? chrono_format_count ((guint64) MAX (0, evidence->value))
        : g_strdup_printf ("%.3g", evidence->value);
    }
  if (suffix != NULL)
    *suffix = '\0';
  g_strdelimit (key, "_-", ' ');
  return g_strdup_printf ("%s %s", key, value);
}

/* Colours of what a stretch of time was spent on, from the span kinds
 * that do such work, so they match the timeline. */
static void
get_kind_color (ChronoKind  kind,
                GdkRGBA    *color)
{
  chrono_palette_merged_color (kind, is_dark (), color);
}

static void
get_idle_color (guint    shade,
                GdkRGBA *color)
{
  chrono_palette_idle_color (shade, is_dark (), color);
}

void
chrono_findings_get_category_color (ChronoPathCategory category,
                                    GdkRGBA           *color)
{
  static const ChronoKind kinds[CHRONO_N_PATH_CATEGORIES] = {
    [CHRONO_PATH_HOST_COMPUTE] = CHRONO_KIND_HOST_OP,
    [CHRONO_PATH_DEVICE_COMPUTE] = CHRONO_KIND_KERNEL,
    [CHRONO_PATH_COMMUNICATION] = CHRONO_KIND_COLLECTIVE,
    [CHRONO_PATH_MEMCPY] = CHRONO_KIND_MEMCPY,
    [CHRONO_PATH_LAUNCH_OVERHEAD] = CHRONO_KIND_RUNTIME,
    [CHRONO_PATH_KERNEL_OVERHEAD] = CHRONO_KIND_OVERHEAD,
  };

  if (category == CHRONO_PATH_IDLE)
    get_idle_color (0, color);
  else
    get_kind_color (kinds[category], color);
}

const char *
chrono_findings_get_category_title (ChronoPathCategory category)
{
  switch (category)
    {
    case CHRONO_PATH_HOST_COMPUTE:    return _("Host compute");
    case CHRONO_PATH_DEVICE_COMPUTE:  return _("Device compute");
    case CHRONO_PATH_COMMUNICATION:   return _("Communication");
    case CHRONO_PATH_MEMCPY:          return _("Memory copies");
    case CHRONO_PATH_LAUNCH_OVERHEAD: return _("Launch overhead");
    case CHRONO_PATH_KERNEL_OVERHEAD: return _("Kernel overhead");
    case CHRONO_PATH_IDLE:            return _("Waiting");
    case CHRONO_N_PATH_CATEGORIES:    break;
    }
  g_return_val_if_reached (NULL);
}

/* A coloured dot before TEXT, in markup. */
char *
chrono_findings_dot_markup (const GdkRGBA *color,
                            const char    *text)
{
  g_autofree char *rgb = g_strdup_printf ("#%02x%02x%02x", (guint) (color->red * 255 + 0.5),
                                          (guint) (color->green * 255 + 0.5), (guint) (color->blue * 255 + 0.5));

  return g_markup_printf_escaped ("<span foreground=\"%s\">●</span> %s", rgb, text);
}

GtkWidget *
chrono_findings_create_finding_row (ChronoAnalysis *analysis,
                                    ChronoTrace    *trace,
                                    guint           index)
{
  const ChronoFinding *finding = chrono_analysis_get_finding (analysis, index);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *severity, *title, *label, *details, *button;
  g_autofree char *lost = chrono_format_duration (finding->time_lost_ns);
  g_autofree char *from = chrono_findings_format_time (trace, finding->start_ns);
  g_autofree char *to = chrono_findings_format_time (trace, finding->end_ns);
  g_autofree char *numbers = NULL;
  g_autoptr(GString) evidence = g_string_new (NULL);
  g_autofree char *recommendation = NULL;

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);

  severity = gtk_label_new (NULL);
  switch (finding->severity)
    {
    case CHRONO_SEVERITY_HIGH:
      gtk_label_set_label (GTK_LABEL (severity), C_("severity", "High"));
      break;
    case CHRONO_SEVERITY_MEDIUM:
      gtk_label_set_label (GTK_LABEL (severity), C_("severity", "Medium"));
      break;
    case CHRONO_SEVERITY_LOW:
      gtk_label_set_label (GTK_LABEL (severity), C_("severity", "Low"));
      break;
    }
  gtk_widget_set_valign (severity, GTK_ALIGN_START);
  gtk_widget_add_css_class (severity, "severity");
  gtk_widget_add_css_class (severity, chrono_severity_to_string (finding->severity));
  title = chrono_findings_new_label (finding->title, "finding-title");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_box_append (GTK_BOX (top), severity);
  gtk_box_append (GTK_BOX (top), title);
  gtk_box_append (GTK_BOX (box), top);

  if (chrono_analysis_get_n_ranks (analysis) > 1)
    /* Translators: time lost, where, and the rank: "12.3 ms lost · 1.2 s – 1.4 s · rank 3" */
    numbers = g_strdup_printf (_("%s lost · %s – %s · %s"), lost, from, to,
                               chrono_analysis_get_rank (analysis, finding->rank)->label);
  else
    /* Translators: time lost, then where: "12.3 ms lost · 1.2 s – 1.4 s" */
    numbers = g_strdup_printf (_("%s lost · %s – %s"), lost, from, to);
  label = chrono_findings_new_label (numbers, "finding-numbers");
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (box), label);

  for (guint i = 0; i < finding->n_evidence; i++)
    {
      g_autofree char *text = format_evidence (&finding->evidence[i]);

      if (i > 0)
        g_string_append (evidence, " · ");
      g_string_append (evidence, text);
    }
  if (evidence->len > 0)
    {
      label = chrono_findings_new_label (evidence->str, "finding-evidence");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }

  /* Shown for the selected finding only: many share their advice. */
  details = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_visible (details, FALSE);
  if (finding->recommendation != NULL)
    {
      /* Translators: what to try about a finding */
      recommendation = g_strdup_printf (_("Try: %s"), finding->recommendation);
      label = chrono_findings_new_label (recommendation, "finding-recommendation");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (details), label);
    }
  button = gtk_button_new_with_mnemonic (_("_Export Picture…"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "findings.export-picture");
  gtk_widget_set_tooltip_text (button, _("The finding framed on its evidence, as the report draws it"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_box_append (GTK_BOX (details), button);
  button = gtk_button_new_with_mnemonic (_("_Summarize"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "findings.summarize");
  gtk_widget_set_tooltip_text (button, _("A table of what the finding's range holds on its tracks"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  gtk_box_append (GTK_BOX (details), button);
  gtk_box_append (GTK_BOX (box), details);
  g_object_set_data (G_OBJECT (row), "recommendation", details);

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "finding", GUINT_TO_POINTER (index));
  gtk_widget_set_tooltip_text (row, finding->rule);
  return row;
}

GtkWidget *
chrono_findings_create_more_row (void)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_set_margin_top (label, 8);
  gtk_widget_set_margin_bottom (label, 8);
  gtk_widget_add_css_class (label, "accent");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_add_css_class (row, "findings-more");
  return row;
}

/* The device a breakdown row is: its streams' process, and its rank. */
static char *
get_device_name (ChronoAnalysis *analysis,
                 ChronoTrace    *trace,
                 guint           row)
{
  const ChronoBreakdown *b = chrono_analysis_get_breakdown (analysis, row);
  const ChronoBreakdown *stream = row + 1 < chrono_analysis_get_n_breakdowns (analysis)
                                  ? chrono_analysis_get_breakdown (analysis, row + 1) : NULL;
  const ChronoRankInfo *rank = chrono_analysis_get_rank (analysis, b->rank);
  const char *name;

  if (stream == NULL || stream->where.track == CHRONO_NO_TRACK || stream->where.track >= chrono_trace_get_n_tracks (trace))
    return g_strdup (rank->label);
  name = chrono_trace_get_string (trace, chrono_trace_get_process (trace,
                                  chrono_trace_get_track (trace, stream->where.track)->process)->display_name);
  if (chrono_analysis_get_n_ranks (analysis) > 1 && rank->rank >= 0 && strstr (name, "ank ") == NULL)
    /* Translators: a device and the rank it belongs to, "GPU 3 · rank 12" */
    return g_strdup_printf (_("%s · %s"), name, rank->label);
  return g_strdup (name);
}

static const char *
rule_title (const char *id)
{
  guint n_rules;
  const ChronoRule *rules = chrono_analysis_get_rules (&n_rules);

  for (guint i = 0; i < n_rules; i++)
    if (g_str_equal (rules[i].id, id))
      return g_dgettext (GETTEXT_PACKAGE, rules[i].title);
  return id;
}

static gint
compare_recoverable (gconstpointer a,
                     gconstpointer b)
{
  const ChronoLedgerRow *x = *(const ChronoLedgerRow * const *) a;
  const ChronoLedgerRow *y = *(const ChronoLedgerRow * const *) b;

  return x->recoverable_ns != y->recoverable_ns ? (x->recoverable_ns > y->recoverable_ns ? -1 : 1)
                                                : (x->breakdown > y->breakdown) - (x->breakdown < y->breakdown);
}

/* The profiler's own split of a device's time, where the trace has one,
 * beside ours. */
static void
append_profiler_overlaps (GtkBox         *box,
                          ChronoAnalysis *analysis)
{
  g_autoptr(GArray) overlaps = chrono_profiler_overlap_find (analysis);

  for (guint i = 0; i < overlaps->len; i++)
    {
      g_autofree char *text = chrono_profiler_overlap_describe (&g_array_index (overlaps, ChronoProfilerOverlap, i));
      GtkWidget *label = chrono_findings_new_label (text, "caption");

      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (box, label);
    }
}

/* What the trace does not show, then one line a device, those that could
 * win back most first: how much of its time, and by what. */
void
chrono_findings_fill_summary (GtkBox         *box,
                              ChronoAnalysis *analysis,
                              ChronoTrace    *trace)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  guint n_limitations = chrono_analysis_get_n_limitations (analysis);

  chrono_findings_remove_children (GTK_WIDGET (box));
  for (guint i = 0; i < MIN (n_limitations, MAX_SUMMARY_LIMITATIONS); i++)
    {
      GtkWidget *label = chrono_findings_new_label (chrono_analysis_get_limitation (analysis, i)->message, "warning");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (box, label);
    }
  if (n_limitations > MAX_SUMMARY_LIMITATIONS)
    {
      guint more = n_limitations - MAX_SUMMARY_LIMITATIONS;
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "…and %u more thing the trace does not show",
                                                            "…and %u more things the trace does not show", more),
                                               more);
      g_autoptr(GString) rest = g_string_new (NULL);
      GtkWidget *label = chrono_findings_new_label (text, "warning");

      for (guint i = MAX_SUMMARY_LIMITATIONS; i < n_limitations; i++)
        g_string_append_printf (rest, "%s%s", rest->len > 0 ? "\n" : "",
                                chrono_analysis_get_limitation (analysis, i)->message);
      gtk_widget_set_tooltip_text (label, rest->str);
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (box, label);
    }
  for (guint i = 0; i < chrono_analysis_get_n_ledger_rows (analysis); i++)
    if (chrono_analysis_get_ledger_row (analysis, i)->step < 0)
      g_ptr_array_add (rows, (gpointer) chrono_analysis_get_ledger_row (analysis, i));
  g_ptr_array_sort (rows, compare_recoverable);
  for (guint i = 0; i < MIN (rows->len, MAX_SUMMARY_DEVICES); i++)
    {
      const ChronoLedgerRow *r = rows->pdata[i];
      g_autoptr(GArray) shares = chrono_analysis_dup_recoverable_by_rule (analysis, r->breakdown);
      g_autofree char *name = NULL;
      g_autofree char *recoverable = NULL;
      g_autofree char *window = NULL;
      g_autoptr(GString) text = NULL;
      GtkWidget *label;

      name = get_device_name (analysis, trace, r->breakdown);
      recoverable = chrono_format_duration (r->recoverable_ns);
      window = chrono_format_duration (r->end_ns - r->start_ns);
      text = g_string_new (NULL);
      /* Translators: "GPU 0: 6.4 ms of 13.0 ms (49%) could be recovered" */
      g_string_append_printf (text, _("%s: %s of %s (%.0f%%) could be recovered"), name, recoverable, window,
                              r->end_ns > r->start_ns ? 100.0 * r->recoverable_ns / (r->end_ns - r->start_ns) : 0.0);
      for (guint q = 0; q < MIN (shares->len, 3); q++)
        {
          const ChronoRuleShare *rs = &g_array_index (shares, ChronoRuleShare, q);
          g_autofree char *ns = chrono_format_duration (rs->ns);
          /* Translators: what a share of the recoverable time comes from, "Data loading 3.1 ms" */
          g_string_append_printf (text, q == 0 ? _(": %s %s") : _(", %s %s"), rule_title (rs->rule), ns);
        }
      label = chrono_findings_new_label (text->str, "caption");
      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (box, label);
    }
  append_profiler_overlaps (box, analysis);
  if (rows->len > MAX_SUMMARY_DEVICES)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "…and %u more device", "…and %u more devices",
                                                         rows->len - MAX_SUMMARY_DEVICES),
                                               rows->len - MAX_SUMMARY_DEVICES);
      GtkWidget *label = chrono_findings_new_label (more, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (box, label);
    }
  gtk_widget_set_visible (GTK_WIDGET (box), gtk_widget_get_first_child (GTK_WIDGET (box)) != NULL);
}

static void
append_legend (GtkBox        *box,
               const char   **titles,
               const GdkRGBA *colors,
               guint          n)
{
  GtkWidget *flow = gtk_flow_box_new ();

  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 4);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 8);
  gtk_widget_set_can_target (flow, FALSE);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *markup = chrono_findings_dot_markup (&colors[i], titles[i]);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "caption");
      gtk_flow_box_append (GTK_FLOW_BOX (flow), label);
    }
  gtk_box_append (box, flow);
}

static char *
get_breakdown_name (ChronoTrace           *trace,
                    const ChronoBreakdown *breakdown)
{

  if (breakdown->where.track < chrono_trace_get_n_tracks (trace))
    return g_strdup (chrono_trace_get_string (trace, chrono_trace_get_track (trace, breakdown->where.track)->display_name));
  return g_strdup (_("Stream"));
}

void
chrono_findings_fill_breakdowns (GtkBox         *breakdown_box,
                                 ChronoAnalysis *analysis,
                                 ChronoTrace    *trace)
{
  const char *titles[] = { _("Compute"), _("Communication"), _("Memory copies"), _("Memory sets"),
                           _("Idle: host"), _("Idle: kernel wait"), _("Idle: other") };
  GdkRGBA colors[G_N_ELEMENTS (titles)];
  guint n = chrono_analysis_get_n_breakdowns (analysis);

  get_kind_color (CHRONO_KIND_KERNEL, &colors[0]);
  get_kind_color (CHRONO_KIND_COLLECTIVE, &colors[1]);
  get_kind_color (CHRONO_KIND_MEMCPY, &colors[2]);
  get_kind_color (CHRONO_KIND_MEMSET, &colors[3]);
  for (guint i = 0; i < 3; i++)
    get_idle_color (i, &colors[4 + i]);

  chrono_findings_remove_children (GTK_WIDGET (breakdown_box));
  if (n == 0)
    {
      gtk_box_append (breakdown_box, chrono_findings_new_label (_("No accelerator work in this trace."), "dim-label"));
      return;
    }
  append_legend (breakdown_box, titles, colors, G_N_ELEMENTS (titles));

  for (guint i = 0; i < n; i++)
    {
      const ChronoBreakdown *b = chrono_analysis_get_breakdown (analysis, i);
      gboolean device = b->where.track == CHRONO_NO_TRACK;
      double work = b->compute_ns + b->communication_ns + b->memcpy_ns + b->memset_ns;
      /* Work on several streams at once can add up to more than busy:
       * shares of busy time, then the idle parts. */
      double scale = work > 0 ? b->busy_ns / work : 0;
      double values[] = { b->compute_ns * scale, b->communication_ns * scale, b->memcpy_ns * scale,
                          b->memset_ns * scale, b->idle_host_wait_ns, b->idle_kernel_wait_ns, b->idle_other_ns };
      g_autofree char *name = device ? get_device_name (analysis, trace, i) : get_breakdown_name (trace, b);
      g_autofree char *window = chrono_format_duration (b->end_ns - b->start_ns);
      g_autofree char *busy = chrono_format_duration (b->busy_ns);
      g_autofree char *idle = chrono_format_duration (b->idle_ns);
      g_autofree char *summary = NULL;
      g_autofree char *overlap = NULL;
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
      GtkWidget *bar = chrono_share_bar_new ();
      GtkWidget *label;

      if (device && i > 0)
        gtk_box_append (breakdown_box, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
      label = chrono_findings_new_label (name, device ? "heading" : NULL);
      gtk_box_append (GTK_BOX (box), label);
      chrono_share_bar_set_parts (CHRONO_SHARE_BAR (bar), values, colors, G_N_ELEMENTS (values),
                                  MAX (1, b->end_ns - b->start_ns));
      gtk_box_append (GTK_BOX (box), bar);
      /* Translators: busy and idle time of a device, "busy 4.1 ms (46%) · idle 4.8 ms of 8.9 ms" */
      summary = g_strdup_printf (_("busy %s (%.0f%%) · idle %s of %s"), busy,
                                 b->end_ns > b->start_ns ? 100.0 * b->busy_ns / (b->end_ns - b->start_ns) : 0.0,
                                 idle, window);
      label = chrono_findings_new_label (summary, "caption");
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "numeric");
      gtk_box_append (GTK_BOX (box), label);
      if (device && b->communication_ns > 0)
        {
          g_autofree char *overlapped = chrono_format_duration (b->overlap_ns);
          g_autofree char *comm = chrono_format_duration (b->communication_ns);

          /* Translators: "communication 5.8 ms, 0.3 ms of it overlapped with compute" */
          overlap = g_strdup_printf (_("communication %s, %s of it overlapped with compute"), comm, overlapped);
          label = chrono_findings_new_label (overlap, "caption");
          gtk_widget_add_css_class (label, "dim-label");
          gtk_box_append (GTK_BOX (box), label);
        }
      gtk_widget_add_css_class (box, "breakdown");
      gtk_box_append (breakdown_box, box);
    }
}
