/* chrono-job-page.c: a job of many ranks in a tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <adwaita.h>
#include <glib/gi18n.h>

#include "chrono-analysis-settings.h"
#include "chrono-application.h"
#include "chrono-format.h"
#include "chrono-job-page.h"
#include "chrono-palette.h"
#include "chrono-timeline-view.h"

/* Ranks loaded together: the one chosen and those it waits for. */
#define MAX_LOADED_RANKS 4
/* Stragglers listed; the rest are counted. */
#define MAX_LISTED_STRAGGLERS 12
/* Without stragglers, the ranks latest in all that are listed. */
#define MAX_RANKED 3
/* Time shown around a collective's arrivals, at the least. */
#define MIN_MOMENT_NS 1000000

/* Shared by the page and the worker. */
typedef struct
{
  char                     *path;
  ChronoJobSource           source;
  ChronoAnalysisThresholds  thresholds;
  GWeakRef                  page;
  gint                      done;
  gint                      total;
  gint                      posted;  /* a progress update waits in the main loop */
} JobLoad;

struct _ChronoJobPage
{
  GtkWidget            parent_instance;

  GFile               *file;
  ChronoJobSource      source;
  ChronoJobTable      *table;
  ChronoDocumentState  state;
  GError              *error;
  GCancellable        *cancellable;

  ChronoDocumentPage  *document;
  gboolean             has_moment;
  gint64               moment_start;
  gint64               moment_end;

  GtkStack            *stack;
  GtkLabel            *file_label;
  GtkProgressBar      *progress_bar;
  AdwStatusPage       *error_page;
  GtkPaned            *paned;
  GtkLabel            *summary_label;
  GtkLabel            *limitations_label;
  GtkListBox          *straggler_list;
  ChronoRankChartView *steps_view;
  ChronoRankChartView *collectives_view;
  ChronoRankChartView *ledger_view;
  GtkLabel            *legend_label;
  GtkBox              *timeline_box;
  GtkLabel            *missing_label;
};

G_DEFINE_FINAL_TYPE (ChronoJobPage, chrono_job_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum {
  CLOSE_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The ledger's states in the colours of the Devices legend: compute,
 * communication and copies as their spans, idle time in greys by cause. */
static void
get_state_color (ChronoLedgerState state,
                 gboolean          dark,
                 GdkRGBA          *color)
{
  switch (state)
    {
    case CHRONO_LEDGER_COMPUTE:
      chrono_palette_merged_color (CHRONO_KIND_KERNEL, dark, color);
      break;
    case CHRONO_LEDGER_COMMUNICATION:
      chrono_palette_merged_color (CHRONO_KIND_COLLECTIVE, dark, color);
      break;
    case CHRONO_LEDGER_COPY:
      chrono_palette_merged_color (CHRONO_KIND_MEMCPY, dark, color);
      break;
    case CHRONO_LEDGER_IDLE_HOST:
    case CHRONO_LEDGER_IDLE_DATA:
      chrono_palette_idle_color (0, dark, color);
      break;
    case CHRONO_LEDGER_IDLE_LAUNCH:
    case CHRONO_LEDGER_IDLE_SYNC:
      chrono_palette_idle_color (1, dark, color);
      break;
    case CHRONO_LEDGER_IDLE_PEER:
    case CHRONO_LEDGER_IDLE_OTHER:
    default:
      chrono_palette_idle_color (2, dark, color);
      break;
    }
}

static const char *
get_state_title (ChronoLedgerState state)
{
  switch (state)
    {
    case CHRONO_LEDGER_COMPUTE:       return _("Compute");
    case CHRONO_LEDGER_COMMUNICATION: return _("Communication");
    case CHRONO_LEDGER_COPY:          return _("Memory copies");
    case CHRONO_LEDGER_IDLE_HOST:     return _("Idle: host");
    case CHRONO_LEDGER_IDLE_LAUNCH:   return _("Idle: kernel wait");
    case CHRONO_LEDGER_IDLE_SYNC:     return _("Idle: synchronising");
    case CHRONO_LEDGER_IDLE_PEER:     return _("Idle: other ranks");
    case CHRONO_LEDGER_IDLE_DATA:     return _("Idle: data loading");
    case CHRONO_LEDGER_IDLE_OTHER:
    default:                          return _("Idle: other");
    }
}

static gboolean
is_dark (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ());
}

static JobLoad *
job_load_new (ChronoJobPage *page)
{
  JobLoad *load = g_atomic_rc_box_new0 (JobLoad);
  GApplication *application = g_application_get_default ();
  GSettings *settings = CHRONO_IS_APPLICATION (application)
                        ? chrono_application_get_settings (CHRONO_APPLICATION (application)) : NULL;
  ChronoAnalysisOptions defaults;

  load->path = g_file_get_path (page->file);
  load->source = page->source;
  chrono_analysis_options_init (&defaults);
  load->thresholds = defaults.thresholds;
  /* The analysis settings of the findings, so a job agrees with them. */
  if (settings != NULL)
    {
      g_autoptr(GSettings) analysis = g_settings_get_child (settings, CHRONO_ANALYSIS_SCHEMA_CHILD);

      chrono_analysis_settings_read (analysis, &load->thresholds);
    }
  g_weak_ref_init (&load->page, page);
  return load;
}

static void
job_load_clear (JobLoad *load)
{
  g_free (load->path);
  g_weak_ref_clear (&load->page);
}

static void
job_load_unref (gpointer load)
{
  g_atomic_rc_box_release_full (load, (GDestroyNotify) job_load_clear);
}

static gboolean
show_progress_cb (gpointer user_data)
{
  JobLoad *load = user_data;
  g_autoptr(ChronoJobPage) self = g_weak_ref_get (&load->page);
  int done, total;
  g_autofree char *text = NULL;

  g_atomic_int_set (&load->posted, 0);
  if (self == NULL)
    return G_SOURCE_REMOVE;
  done = g_atomic_int_get (&load->done);
  total = g_atomic_int_get (&load->total);
  /* Translators: files of the folder summarised so far, "12 of 64 files" */
  text = g_strdup_printf (ngettext ("%d of %d file", "%d of %d files", total), done, total);
  gtk_progress_bar_set_fraction (self->progress_bar, total > 0 ? (double) done / total : 0);
  gtk_progress_bar_set_text (self->progress_bar, text);
  return G_SOURCE_REMOVE;
}

/* On the worker: keep the numbers, and wake the main thread unless an
 * update already waits there. */
static void
progress_cb (guint64  done,
             guint64  total,
             gpointer user_data)
{
  JobLoad *load = user_data;

  g_atomic_int_set (&load->done, (gint) done);
  g_atomic_int_set (&load->total, (gint) total);
  if (g_atomic_int_compare_and_exchange (&load->posted, 0, 1))
    g_idle_add_full (G_PRIORITY_DEFAULT, show_progress_cb, g_atomic_rc_box_acquire (load), job_load_unref);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  JobLoad *load = task_data;
  GError *error = NULL;
  ChronoJobTable *table;

  if (load->source == CHRONO_JOB_SOURCE_RANKS)
    table = chrono_job_table_new_for_folder (load->path, &load->thresholds, cancellable, progress_cb, load, &error);
  else
    table = chrono_job_table_load (load->path, &error);
  if (table != NULL)
    g_task_return_pointer (task, table, (GDestroyNotify) chrono_job_table_free);
  else
    g_task_return_error (task, error);
}

static void
set_state (ChronoJobPage       *self,
           ChronoDocumentState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "job.cancel", state == CHRONO_DOCUMENT_STATE_LOADING);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static char *
rank_name (ChronoJobTable *table,
           guint           rank)
{
  return table->ranks[rank].rank >= 0 ? g_strdup_printf ("%d", table->ranks[rank].rank) : g_strdup ("?");
}

static void
fill_summary (ChronoJobPage *self)
{
  ChronoJobTable *t = self->table;
  g_autofree char *ranks = g_strdup_printf (ngettext ("%u rank", "%u ranks", t->n_ranks), t->n_ranks);
  g_autofree char *steps = g_strdup_printf (ngettext ("%u step", "%u steps", t->n_steps), t->n_steps);
  g_autofree char *collectives = g_strdup_printf (ngettext ("%u collective", "%u collectives", t->n_collectives),
                                                  t->n_collectives);
  g_autofree char *stragglers = g_strdup_printf (ngettext ("%u straggler", "%u stragglers", t->stragglers->len),
                                                 t->stragglers->len);
  /* Translators: "1,024 ranks · 4 steps · 16 collectives · 1 straggler" */
  g_autofree char *text = g_strdup_printf (_("%s · %s · %s · %s"), ranks, steps, collectives, stragglers);
  g_autoptr(GString) limits = g_string_new (NULL);

  for (guint i = 0; i < t->limitations->len; i++)
    g_string_append_printf (limits, "%s%s", i > 0 ? "\n" : "", (char *) t->limitations->pdata[i]);
  gtk_label_set_label (self->summary_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->limitations_label), limits->len > 0);
  gtk_label_set_label (self->limitations_label, limits->str);
}

static void
on_straggler_activated (GtkListBox    *list,
                        GtkListBoxRow *row,
                        ChronoJobPage *self)
{
  gpointer data = g_object_get_data (G_OBJECT (row), "rank");
  guint rank, worst = G_MAXUINT;
  gint64 latest = -1;

  if (data == NULL)
    return;
  rank = GPOINTER_TO_UINT (data) - 1;
  /* At the collective it came to latest. */
  for (guint c = 0; c < self->table->n_collectives; c++)
    {
      gint64 a = self->table->collectives[c].arrival_ns[rank];

      if (a != CHRONO_JOB_MISSING && a > latest)
        {
          latest = a;
          worst = c;
        }
    }
  chrono_job_page_load_rank (self, rank, G_MAXUINT, worst);
}

/* A row for rank R that loads it: a straggler by its usual lateness, any
 * other rank by its lateness in all. */
static void
append_late_rank (ChronoJobPage *self,
                  guint          r)
{
  ChronoJobTable *t = self->table;
  const ChronoJobRank *rank = &t->ranks[r];
  g_autofree char *name = rank_name (t, r);
  g_autofree char *title = g_strdup_printf (_("Rank %s"), name);
  g_autofree char *late = chrono_format_duration (rank->straggler ? rank->median_lateness_ns : rank->late_ns);
  g_autofree char *wait = chrono_format_duration (rank->wait_caused_ns);
  g_autofree char *last = g_strdup_printf (ngettext ("last at %u of %u collective", "last at %u of %u collectives",
                                                     rank->n_collectives),
                                           rank->times_last, rank->n_collectives);
  g_autofree char *subtitle = NULL;
  GtkWidget *row = adw_action_row_new ();

  if (rank->straggler)
    /* Translators: a straggler: its usual lateness, how often it came last, what the others waited */
    subtitle = g_strdup_printf (_("usually %s late · %s · the others waited %s for it"), late, last, wait);
  else
    /* Translators: a rank that is late now and then: its lateness summed over the collectives */
    subtitle = g_strdup_printf (_("late by %s in all, now and then · %s · the others waited %s for it"),
                                late, last, wait);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  g_object_set_data (G_OBJECT (row), "rank", GUINT_TO_POINTER (r + 1));
  gtk_list_box_append (self->straggler_list, row);
}

static void
fill_stragglers (ChronoJobPage *self)
{
  ChronoJobTable *t = self->table;
  g_autofree char *threshold = chrono_format_duration (t->min_skew_ns);
  GtkWidget *row;

  for (guint i = 0; i < MIN (t->stragglers->len, MAX_LISTED_STRAGGLERS); i++)
    append_late_rank (self, g_array_index (t->stragglers, guint, i));
  if (t->stragglers->len > MAX_LISTED_STRAGGLERS)
    {
      guint more = t->stragglers->len - MAX_LISTED_STRAGGLERS;
      g_autofree char *text = g_strdup_printf (ngettext ("and %u more, in the step and arrival maps",
                                                         "and %u more, in the step and arrival maps", more), more);

      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      gtk_list_box_append (self->straggler_list, row);
    }
  if (t->stragglers->len == 0)
    {
      /* Translators: the threshold, "1.0 ms" */
      g_autofree char *text = g_strdup_printf (_("No rank is late by %s or more at half its collectives"), threshold);

      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      gtk_list_box_append (self->straggler_list, row);
      /* Those latest all the same, as far as they are late at all. */
      for (guint i = 0; i < MIN (t->ranking->len, MAX_RANKED); i++)
        append_late_rank (self, g_array_index (t->ranking, guint, i));
    }
}

/* The bars' colours, each named once: the idle causes share greys. */
static void
fill_legend (ChronoJobPage *self)
{
  static const struct {
    ChronoLedgerState state;
    const char       *title;
  } entries[] = {
    { CHRONO_LEDGER_COMPUTE, N_("Compute") },
    { CHRONO_LEDGER_COMMUNICATION, N_("Communication") },
    { CHRONO_LEDGER_COPY, N_("Memory copies") },
    { CHRONO_LEDGER_IDLE_HOST, N_("Idle: host or data loading") },
    { CHRONO_LEDGER_IDLE_LAUNCH, N_("Idle: kernel wait or synchronising") },
    { CHRONO_LEDGER_IDLE_PEER, N_("Idle: other ranks, other") },
  };
  g_autoptr(GString) legend = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      GdkRGBA color;
      g_autofree char *css = NULL;
      g_autofree char *title = g_markup_escape_text (_(entries[i].title), -1);

      get_state_color (entries[i].state, is_dark (), &color);
      css = g_strdup_printf ("#%02x%02x%02x", (int) (color.red * 255 + 0.5), (int) (color.green * 255 + 0.5),
                             (int) (color.blue * 255 + 0.5));
      g_string_append_printf (legend, "%s<span foreground=\"%s\">●</span> %s", i > 0 ? "   " : "", css, title);
    }
  gtk_label_set_markup (self->legend_label, legend->str);
}

static void
set_row_labels (ChronoJobTable  *t,
                ChronoRankChart *chart)
{
  for (guint r = 0; r < t->n_ranks; r++)
    {
      g_autofree char *name = rank_name (t, r);

      chrono_rank_chart_set_row_label (chart, r, name);
    }
}

static void
fill_charts (ChronoJobPage *self)
{
  ChronoJobTable *t = self->table;
  ChronoRankChart *steps = chrono_rank_chart_new (CHRONO_RANK_CHART_HEAT_MAP, t->n_ranks, t->n_steps);
  ChronoRankChart *collectives = chrono_rank_chart_new (CHRONO_RANK_CHART_HEAT_MAP, t->n_ranks, t->n_collectives);
  ChronoRankChart *ledger = chrono_rank_chart_new (CHRONO_RANK_CHART_BARS, t->n_ranks, CHRONO_N_LEDGER_STATES);

  set_row_labels (t, steps);
  set_row_labels (t, collectives);
  set_row_labels (t, ledger);
  chrono_rank_chart_set_value_name (steps, _("step time"));
  chrono_rank_chart_set_value_name (collectives, _("after the first arrival"));
  chrono_rank_chart_set_value_name (ledger, _("share of device time"));
  for (guint k = 0; k < t->n_steps; k++)
    {
      const char *hash = strrchr (t->steps[k].name, '#');
      g_autofree char *fallback = g_strdup_printf ("%u", k + 1);

      chrono_rank_chart_set_col_label (steps, k, t->steps[k].name, hash ? hash : fallback);
      for (guint r = 0; r < t->n_ranks; r++)
        if (t->steps[k].duration_ns[r] != CHRONO_JOB_MISSING)
          chrono_rank_chart_set_value (steps, r, k, t->steps[k].duration_ns[r]);
    }
  for (guint c = 0; c < t->n_collectives; c++)
    {
      /* Translators: a collective by its place in the job, "#3 all_reduce" */
      g_autofree char *label = g_strdup_printf (_("collective %u, %s"), c, t->collectives[c].name);
      g_autofree char *short_label = g_strdup_printf ("%u", c);

      chrono_rank_chart_set_col_label (collectives, c, label, short_label);
      for (guint r = 0; r < t->n_ranks; r++)
        if (t->collectives[c].arrival_ns[r] != CHRONO_JOB_MISSING)
          chrono_rank_chart_set_value (collectives, r, c, t->collectives[c].arrival_ns[r]);
    }
  for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
    {
      GdkRGBA light, dark;

      get_state_color (s, FALSE, &light);
      get_state_color (s, TRUE, &dark);
      chrono_rank_chart_set_part_color (ledger, s, &light, &dark);
      chrono_rank_chart_set_col_label (ledger, s, get_state_title (s), NULL);
      for (guint r = 0; r < t->n_ranks; r++)
        chrono_rank_chart_set_value (ledger, r, s, t->ranks[r].state_ns[s]);
    }
  chrono_rank_chart_view_set_chart (self->steps_view, steps);
  chrono_rank_chart_view_set_chart (self->collectives_view, collectives);
  chrono_rank_chart_view_set_chart (self->ledger_view, ledger);
}

static void
load_done_cb (GObject      *source_object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ChronoJobPage *self = CHRONO_JOB_PAGE (source_object);
  g_autoptr(GError) error = NULL;
  ChronoJobTable *table = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  g_clear_object (&self->cancellable);
  if (table != NULL)
    {
      self->table = table;
      fill_summary (self);
      fill_stragglers (self);
      fill_charts (self);
      gtk_stack_set_visible_child_name (self->stack, "job");
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        gtk_widget_grab_focus (GTK_WIDGET (self->collectives_view));
      set_state (self, CHRONO_DOCUMENT_STATE_LOADED);
      return;
    }
  self->error = g_steal_pointer (&error);
  if (g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (self->error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_CANCELLED))
    {
      set_state (self, CHRONO_DOCUMENT_STATE_CANCELLED);
      title = g_strdup (_("Loading Cancelled"));
    }
  else
    {
      set_state (self, CHRONO_DOCUMENT_STATE_FAILED);
      name = chrono_job_page_dup_title (self);
      title = g_strdup_printf (_("Could Not Open “%s”"), name);
    }
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, self->error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
}

static void
start_load (ChronoJobPage *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *title = chrono_job_page_dup_title (self);
  /* Translators: the folder or file name */
  g_autofree char *text = g_strdup_printf (self->source == CHRONO_JOB_SOURCE_RANKS ? _("Summarising the ranks of “%s”")
                                                                                   : _("Reading “%s”"), title);

  gtk_label_set_label (self->file_label, text);
  gtk_progress_bar_set_text (self->progress_bar, "");
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, load_done_cb, NULL);
  g_task_set_source_tag (task, start_load);
  g_task_set_task_data (task, job_load_new (self), job_load_unref);
  g_task_run_in_thread (task, load_thread);
}

typedef struct {
  gint64 arrival;
  guint  rank;
} Arrival;

static gint
compare_latest_first (gconstpointer a,
                      gconstpointer b)
{
  const Arrival *x = a, *y = b;

  if (x->arrival != y->arrival)
    return x->arrival > y->arrival ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* The ranks RANK waits for at COLLECTIVE: those that arrived after it,
 * latest first. */
static void
add_waited_for_collective (ChronoJobTable *t,
                           guint           rank,
                           guint           collective,
                           GArray         *ranks)
{
  const ChronoJobCollective *c = &t->collectives[collective];
  g_autoptr(GArray) later = g_array_new (FALSE, FALSE, sizeof (Arrival));

  if (!c->matched || c->arrival_ns[rank] == CHRONO_JOB_MISSING)
    return;
  for (guint r = 0; r < t->n_ranks; r++)
    if (c->arrival_ns[r] != CHRONO_JOB_MISSING && c->arrival_ns[r] > c->arrival_ns[rank])
      {
        Arrival a = { c->arrival_ns[r], r };

        g_array_append_val (later, a);
      }
  g_array_sort (later, compare_latest_first);
  for (guint i = 0; i < later->len && ranks->len < MAX_LOADED_RANKS; i++)
    g_array_append_val (ranks, g_array_index (later, Arrival, i).rank);
}

static void
on_document_state (ChronoDocumentPage *document,
                   GParamSpec         *pspec,
                   ChronoJobPage      *self)
{
  ChronoTimelineView *view;

  if (document != self->document || chrono_document_page_get_state (document) != CHRONO_DOCUMENT_STATE_LOADED ||
      !self->has_moment)
    return;
  view = chrono_document_page_get_timeline_view (document);
  chrono_viewport_zoom_to_range (chrono_timeline_get_viewport (chrono_timeline_view_get_timeline (view)),
                                 self->moment_start, self->moment_end);
}

static void
close_document (ChronoJobPage *self)
{
  if (self->document == NULL)
    return;
  chrono_document_page_cancel (self->document);
  gtk_box_remove (self->timeline_box, GTK_WIDGET (self->document));
  self->document = NULL;
}

static void
on_document_close_requested (ChronoDocumentPage *document,
                             ChronoJobPage      *self)
{
  close_document (self);
  gtk_widget_set_visible (GTK_WIDGET (self->timeline_box), FALSE);
}

void
chrono_job_page_load_rank (ChronoJobPage *self,
                           guint          rank,
                           guint          step,
                           guint          collective)
{
  ChronoJobTable *t;
  g_autoptr(GArray) ranks = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GListStore) files = g_list_store_new (G_TYPE_FILE);
  g_autoptr(GString) missing = g_string_new (NULL);
  gint64 offset;

  g_return_if_fail (CHRONO_IS_JOB_PAGE (self));
  g_return_if_fail (self->table != NULL && rank < self->table->n_ranks);
  t = self->table;
  offset = t->ranks[rank].clock_offset_ns;

  g_array_append_val (ranks, rank);
  self->has_moment = FALSE;
  if (step < t->n_steps && t->steps[step].start_ns[rank] != CHRONO_JOB_MISSING)
    {
      const ChronoJobStep *s = &t->steps[step];
      gint64 margin = s->duration_ns[rank] / 20;

      for (guint i = 0; i < s->slow_ranks->len && ranks->len < MAX_LOADED_RANKS; i++)
        if (g_array_index (s->slow_ranks, guint, i) != rank)
          g_array_append_val (ranks, g_array_index (s->slow_ranks, guint, i));
      /* The step, on the chosen rank's own clock, as its timeline shows it. */
      self->moment_start = s->start_ns[rank] + offset - margin;
      self->moment_end = s->start_ns[rank] + s->duration_ns[rank] + offset + margin;
      self->has_moment = TRUE;
    }
  else if (collective < t->n_collectives && t->collectives[collective].matched)
    {
      const ChronoJobCollective *c = &t->collectives[collective];
      gint64 pad = MAX (c->skew_ns / 4, MIN_MOMENT_NS / 2);

      add_waited_for_collective (t, rank, collective, ranks);
      /* From the first arrival to the last, with room either side. */
      self->moment_start = c->first_arrival_ns + offset - pad;
      self->moment_end = c->first_arrival_ns + c->skew_ns + offset + pad;
      self->has_moment = TRUE;
    }

  for (guint i = 0; i < ranks->len; i++)
    {
      guint r = g_array_index (ranks, guint, i);
      g_autofree char *path = chrono_job_table_find_trace (t, r);
      g_autofree char *name = rank_name (t, r);

      if (path != NULL)
        {
          g_autoptr(GFile) file = g_file_new_for_path (path);

          g_list_store_append (files, file);
        }
      else
        /* Translators: a rank whose trace file was moved or removed */
        g_string_append_printf (missing, _("%sThe trace of rank %s is no longer at %s."),
                                missing->len ? "\n" : "", name, t->ranks[r].path);
    }

  close_document (self);
  gtk_widget_set_visible (GTK_WIDGET (self->timeline_box), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->missing_label), missing->len > 0);
  gtk_label_set_label (self->missing_label, missing->str);
  if (g_list_model_get_n_items (G_LIST_MODEL (files)) == 0)
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (files)) == 1)
    {
      g_autoptr(GFile) file = g_list_model_get_item (G_LIST_MODEL (files), 0);

      self->document = chrono_document_page_new (file);
    }
  else
    self->document = chrono_document_page_new_for_files (G_LIST_MODEL (files));
  gtk_widget_set_vexpand (GTK_WIDGET (self->document), TRUE);
  /* The job's own view is the summary beside it: the timeline gets the room. */
  chrono_document_page_set_show_findings (self->document, FALSE);
  g_signal_connect_object (self->document, "notify::state", G_CALLBACK (on_document_state), self, 0);
  g_signal_connect_object (self->document, "close-requested", G_CALLBACK (on_document_close_requested), self, 0);
  gtk_box_append (self->timeline_box, GTK_WIDGET (self->document));
  /* The charts keep a good half of the page. */
  if (gtk_widget_get_width (GTK_WIDGET (self)) > 0)
    gtk_paned_set_position (self->paned, gtk_widget_get_width (GTK_WIDGET (self)) * 9 / 20);
}

static void
on_cell_activated (ChronoRankChartView *view,
                   guint                row,
                   guint                col,
                   ChronoJobPage       *self)
{
  if (view == self->steps_view)
    chrono_job_page_load_rank (self, row, col, G_MAXUINT);
  else if (view == self->collectives_view)
    chrono_job_page_load_rank (self, row, G_MAXUINT, col);
  else
    chrono_job_page_load_rank (self, row, G_MAXUINT, G_MAXUINT);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  chrono_job_page_cancel (CHRONO_JOB_PAGE (widget));
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  g_signal_emit (widget, signals[CLOSE_REQUESTED], 0);
}

static void
focus_charts_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  ChronoJobPage *self = CHRONO_JOB_PAGE (widget);

  if (self->table != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->collectives_view));
}

static void
close_timeline_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  ChronoJobPage *self = CHRONO_JOB_PAGE (widget);

  close_document (self);
  gtk_widget_set_visible (GTK_WIDGET (self->timeline_box), FALSE);
}

static void
update_dark (ChronoJobPage *self)
{
  gboolean dark = is_dark ();

  chrono_rank_chart_view_set_dark (self->steps_view, dark);
  chrono_rank_chart_view_set_dark (self->collectives_view, dark);
  chrono_rank_chart_view_set_dark (self->ledger_view, dark);
  fill_legend (self);
}

static void
chrono_job_page_dispose (GObject *object)
{
  ChronoJobPage *self = CHRONO_JOB_PAGE (object);

  chrono_job_page_cancel (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CHRONO_TYPE_JOB_PAGE);
  G_OBJECT_CLASS (chrono_job_page_parent_class)->dispose (object);
}

static void
chrono_job_page_finalize (GObject *object)
{
  ChronoJobPage *self = CHRONO_JOB_PAGE (object);

  g_clear_object (&self->file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->table, chrono_job_table_free);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (chrono_job_page_parent_class)->finalize (object);
}

static void
chrono_job_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, CHRONO_JOB_PAGE (object)->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_job_page_class_init (ChronoJobPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = chrono_job_page_dispose;
  object_class->finalize = chrono_job_page_finalize;
  object_class->get_property = chrono_job_page_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, CHRONO_TYPE_DOCUMENT_STATE, CHRONO_DOCUMENT_STATE_LOADING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (CHRONO_TYPE_RANK_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/chronoscope/Chronoscope/chrono-job-page.ui");
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, stack);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, paned);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, limitations_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, straggler_list);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, steps_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, collectives_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, ledger_view);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, legend_label);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, timeline_box);
  gtk_widget_class_bind_template_child (widget_class, ChronoJobPage, missing_label);

  gtk_widget_class_install_action (widget_class, "job.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "job.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "job.focus-charts", NULL, focus_charts_action);
  gtk_widget_class_install_action (widget_class, "job.close-timeline", NULL, close_timeline_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_j, GDK_CONTROL_MASK, "job.focus-charts", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F7, 0, "job.close-timeline", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
chrono_job_page_init (ChronoJobPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The charts scroll and zoom over the ranks together. */
  g_object_bind_property (self->steps_view, "first-row", self->collectives_view, "first-row",
                          G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->steps_view, "visible-rows", self->collectives_view, "visible-rows",
                          G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->collectives_view, "first-row", self->ledger_view, "first-row",
                          G_BINDING_BIDIRECTIONAL);
  g_object_bind_property (self->collectives_view, "visible-rows", self->ledger_view, "visible-rows",
                          G_BINDING_BIDIRECTIONAL);
  g_signal_connect_object (self->steps_view, "cell-activated", G_CALLBACK (on_cell_activated), self, 0);
  g_signal_connect_object (self->collectives_view, "cell-activated", G_CALLBACK (on_cell_activated), self, 0);
  g_signal_connect_object (self->ledger_view, "cell-activated", G_CALLBACK (on_cell_activated), self, 0);
  g_signal_connect_object (self->straggler_list, "row-activated", G_CALLBACK (on_straggler_activated), self, 0);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (update_dark), self,
                           G_CONNECT_SWAPPED);
  update_dark (self);
}

ChronoJobPage *
chrono_job_page_new (GFile          *file,
                     ChronoJobSource source)
{
  ChronoJobPage *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (source != CHRONO_JOB_SOURCE_NONE, NULL);

  self = g_object_new (CHRONO_TYPE_JOB_PAGE, NULL);
  self->file = g_object_ref (file);
  self->source = source;
  start_load (self);
  return self;
}

GFile *
chrono_job_page_get_file (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->file;
}

char *
chrono_job_page_dup_title (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return g_file_get_basename (self->file);
}

ChronoDocumentState
chrono_job_page_get_state (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), CHRONO_DOCUMENT_STATE_FAILED);
  return self->state;
}

const GError *
chrono_job_page_get_error (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->error;
}

void
chrono_job_page_cancel (ChronoJobPage *self)
{
  g_return_if_fail (CHRONO_IS_JOB_PAGE (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  close_document (self);
}

ChronoJobTable *
chrono_job_page_get_table (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->table;
}

ChronoRankChartView *
chrono_job_page_get_steps_view (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->steps_view;
}

ChronoRankChartView *
chrono_job_page_get_collectives_view (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->collectives_view;
}

ChronoRankChartView *
chrono_job_page_get_ledger_view (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->ledger_view;
}

ChronoDocumentPage *
chrono_job_page_get_document (ChronoJobPage *self)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), NULL);
  return self->document;
}

gboolean
chrono_job_page_get_moment (ChronoJobPage *self,
                            gint64        *start_ns,
                            gint64        *end_ns)
{
  g_return_val_if_fail (CHRONO_IS_JOB_PAGE (self), FALSE);
  if (!self->has_moment)
    return FALSE;
  *start_ns = self->moment_start;
  *end_ns = self->moment_end;
  return TRUE;
}
