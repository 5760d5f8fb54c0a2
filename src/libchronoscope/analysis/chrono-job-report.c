/* chrono-job-report.c: a job's analysis as a report a person can paste
 *
 * The figures are the job's JSON read back, so the report and
 * "chronoscope.job/1" never disagree; the findings are the ranks' own,
 * from their summaries, which the JSON only counts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-format.h"
#include "chrono-job.h"
#include "chrono-job-table.h"

/* The job's findings shown one a line, most costly first. */
#define MAX_FINDINGS 20

static char *
rank_label (gint  rank,
            guint index)
{
  return rank >= 0 ? g_strdup_printf (_("rank %d"), rank) : g_strdup_printf (_("trace %u"), index);
}

static char *
percent (gint64 part,
         gint64 whole)
{
  return whole > 0 ? g_strdup_printf ("%.1f%%", 100.0 * part / whole) : g_strdup ("–");
}

static void
append_ranks (GString              *s,
              const ChronoJobTable *job)
{
  g_string_append_printf (s, "\n## %s\n\n%s\n\n", _("Ranks"),
                          _("Shares of each rank's device time; lateness is its median arrival at the "
                            "collectives after the median rank's."));
  g_string_append_printf (s, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n"
                             "|---|---:|---:|---:|---:|---:|---:|---:|---|\n",
                          _("Rank"), _("Device time"), _("Compute"), _("Communication"), _("Copies"),
                          _("Idle"), _("Median lateness"), _("Last to arrive"), _("Trace"));
  for (guint i = 0; i < job->n_ranks; i++)
    {
      const ChronoJobRank *r = &job->ranks[i];
      gint64 idle = r->window_ns - r->state_ns[CHRONO_LEDGER_COMPUTE] - r->state_ns[CHRONO_LEDGER_TRANSPOSE] -
                    r->state_ns[CHRONO_LEDGER_COMMUNICATION] - r->state_ns[CHRONO_LEDGER_COPY];
      g_autofree char *label = rank_label (r->rank, i);
      g_autofree char *shown = r->straggler ? g_strdup_printf ("**%s**", label) : g_strdup (label);
      g_autofree char *window = chrono_format_duration (r->window_ns);
      g_autofree char *compute = percent (r->state_ns[CHRONO_LEDGER_COMPUTE] + r->state_ns[CHRONO_LEDGER_TRANSPOSE],
                                          r->window_ns);
      g_autofree char *comm = percent (r->state_ns[CHRONO_LEDGER_COMMUNICATION], r->window_ns);
      g_autofree char *copy = percent (r->state_ns[CHRONO_LEDGER_COPY], r->window_ns);
      g_autofree char *idle_share = percent (idle, r->window_ns);
      g_autofree char *late = chrono_format_duration_change (r->median_lateness_ns);
      g_autofree char *last = g_strdup_printf ("%u", r->times_last);
      g_autofree char *base = g_path_get_basename (r->path);
      g_autofree char *trace = g_strdup_printf ("`%s`", base);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, shown);
      chrono_format_markdown_cell (s, window);
      chrono_format_markdown_cell (s, compute);
      chrono_format_markdown_cell (s, comm);
      chrono_format_markdown_cell (s, copy);
      chrono_format_markdown_cell (s, idle_share);
      chrono_format_markdown_cell (s, late);
      chrono_format_markdown_cell (s, last);
      chrono_format_markdown_cell (s, trace);
      g_string_append (s, "\n");
    }
}

static void
append_stragglers (GString              *s,
                   const ChronoJobTable *job)
{
  g_autofree char *skew = chrono_format_duration (job->min_skew_ns);

  g_string_append_printf (s, "\n## %s\n\n", _("Stragglers"));
  if (job->stragglers->len == 0)
    {
      g_string_append_printf (s, _("No rank is late by %s or more at half its collectives.\n"), skew);
      return;
    }
  for (guint i = 0; i < job->stragglers->len; i++)
    {
      const ChronoJobRank *r = &job->ranks[g_array_index (job->stragglers, guint, i)];
      g_autofree char *label = rank_label (r->rank, g_array_index (job->stragglers, guint, i));
      g_autofree char *late = chrono_format_duration (r->median_lateness_ns);
      g_autofree char *caused = chrono_format_duration (r->wait_caused_ns);

      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                              "- **%s** arrives %s after the median rank (its median over %u "
                                              "collective); last at %u of them, it makes the others wait %s.\n",
                                              "- **%s** arrives %s after the median rank (its median over %u "
                                              "collectives); last at %u of them, it makes the others wait %s.\n",
                                              r->n_collectives),
                              label, late, r->n_collectives, r->times_last, caused);
    }
}

static void
append_steps (GString              *s,
              const ChronoJobTable *job)
{
  if (job->n_steps == 0)
    return;
  g_string_append_printf (s, "\n## %s\n\n| %s | %s | %s | %s |\n|---|---:|---:|---|\n", _("Steps"),
                          _("Step"), _("Median"), _("Slowest"), _("Slow ranks at its collectives"));
  for (guint i = 0; i < job->n_steps; i++)
    {
      const ChronoJobStep *step = &job->steps[i];
      g_autofree char *median = chrono_format_duration (step->median_duration_ns);
      g_autofree char *slowest = NULL;
      g_autoptr(GString) slow = g_string_new (NULL);
      gint worst = -1;

      for (guint r = 0; r < job->n_ranks; r++)
        if (step->duration_ns[r] != CHRONO_JOB_MISSING &&
            (worst < 0 || step->duration_ns[r] > step->duration_ns[worst]))
          worst = r;
      if (worst >= 0)
        {
          g_autofree char *label = rank_label (job->ranks[worst].rank, worst);
          g_autofree char *dur = chrono_format_duration (step->duration_ns[worst]);

          slowest = g_strdup_printf (_("%s (%s)"), dur, label);
        }
      for (guint k = 0; k < step->slow_ranks->len; k++)
        {
          guint r = g_array_index (step->slow_ranks, guint, k);
          g_autofree char *label = rank_label (job->ranks[r].rank, r);

          g_string_append_printf (slow, "%s%s", k > 0 ? ", " : "", label);
        }
      g_string_append (s, "|");
      chrono_format_markdown_cell (s, step->name);
      chrono_format_markdown_cell (s, median);
      chrono_format_markdown_cell (s, slowest ? slowest : "–");
      chrono_format_markdown_cell (s, slow->len > 0 ? slow->str : "–");
      g_string_append (s, "\n");
    }
}

typedef struct {
  const ChronoSummaryFinding *finding;
  gint                        rank;
  guint                       index;
} RankFinding;

typedef struct {
  const char *rule;
  const char *costliest;       /* its costliest finding's title */
  gint64      time_lost_ns;
  GHashTable *ranks;           /* the summaries it was found in */
} RuleTotal;

static void
rule_total_clear (RuleTotal *t)
{
  g_hash_table_unref (t->ranks);
}

static gint
compare_totals (gconstpointer a,
                gconstpointer b)
{
  const RuleTotal *x = a, *y = b;

  if (x->time_lost_ns != y->time_lost_ns)
    return x->time_lost_ns > y->time_lost_ns ? -1 : 1;
  return strcmp (x->rule, y->rule);
}

static gint
compare_findings (gconstpointer a,
                  gconstpointer b)
{
  const RankFinding *x = a, *y = b;

  if (x->finding->time_lost_ns != y->finding->time_lost_ns)
    return x->finding->time_lost_ns > y->finding->time_lost_ns ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Per rule, how many ranks it found on and what it costs in all; then the
 * costliest findings of every rank. */
static void
append_findings (GString                   *s,
                 ChronoRankSummary * const *summaries,
                 guint                      n_summaries)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (RankFinding));
  g_autoptr(GArray) totals = g_array_new (FALSE, FALSE, sizeof (RuleTotal));

  g_array_set_clear_func (totals, (GDestroyNotify) rule_total_clear);
  g_string_append_printf (s, "\n## %s\n\n", _("Findings"));
  for (guint i = 0; i < n_summaries; i++)
    for (guint k = 0; k < summaries[i]->findings->len; k++)
      {
        RankFinding f = { &g_array_index (summaries[i]->findings, ChronoSummaryFinding, k), summaries[i]->rank, i };

        g_array_append_val (all, f);
      }
  if (all->len == 0)
    {
      g_string_append_printf (s, "%s\n", _("No rank has a bottleneck finding."));
      return;
    }
  g_array_sort (all, compare_findings);

  /* Costliest first, so each rule's first is its costliest. */
  for (guint i = 0; i < all->len; i++)
    {
      const RankFinding *f = &g_array_index (all, RankFinding, i);
      RuleTotal *t = NULL;

      for (guint k = 0; k < totals->len && t == NULL; k++)
        if (strcmp (g_array_index (totals, RuleTotal, k).rule, f->finding->rule) == 0)
          t = &g_array_index (totals, RuleTotal, k);
      if (t == NULL)
        {
          RuleTotal fresh = { f->finding->rule, f->finding->title, 0, g_hash_table_new (NULL, NULL) };

          g_array_append_val (totals, fresh);
          t = &g_array_index (totals, RuleTotal, totals->len - 1);
        }
      t->time_lost_ns += f->finding->time_lost_ns;
      g_hash_table_add (t->ranks, GUINT_TO_POINTER (f->index));
    }
  g_array_sort (totals, compare_totals);

  g_string_append_printf (s, "| %s | %s | %s | %s |\n|---|---:|---:|---|\n",
                          _("Rule"), _("Ranks"), _("Time lost"), _("Costliest"));
  for (guint k = 0; k < totals->len; k++)
    {
      const RuleTotal *t = &g_array_index (totals, RuleTotal, k);
      g_autofree char *lost = chrono_format_duration (t->time_lost_ns);
      g_autofree char *n_ranks = g_strdup_printf ("%u", g_hash_table_size (t->ranks));

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, t->rule);
      chrono_format_markdown_cell (s, n_ranks);
      chrono_format_markdown_cell (s, lost);
      chrono_format_markdown_cell (s, t->costliest);
      g_string_append (s, "\n");
    }

  g_string_append_printf (s, "\n| %s | %s | %s | %s |\n|---|---|---:|---|\n",
                          _("Rank"), _("Severity"), _("Time lost"), _("Finding"));
  for (guint i = 0; i < MIN (all->len, MAX_FINDINGS); i++)
    {
      const RankFinding *f = &g_array_index (all, RankFinding, i);
      g_autofree char *label = rank_label (f->rank, f->index);
      g_autofree char *lost = chrono_format_duration (f->finding->time_lost_ns);

      g_string_append (s, "|");
      chrono_format_markdown_cell (s, label);
      chrono_format_markdown_cell (s, f->finding->severity);
      chrono_format_markdown_cell (s, lost);
      chrono_format_markdown_cell (s, f->finding->title);
      g_string_append (s, "\n");
    }
  if (all->len > MAX_FINDINGS)
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "\n…and %u smaller finding.\n",
                                            "\n…and %u smaller findings.\n", all->len - MAX_FINDINGS),
                            all->len - MAX_FINDINGS);
}

char *
chrono_job_reduce_to_markdown (ChronoRankSummary * const      *summaries,
                               guint                           n_summaries,
                               const ChronoAnalysisThresholds *thresholds,
                               GError                        **error)
{
  g_autofree char *json = chrono_job_reduce_to_json (summaries, n_summaries, thresholds, error);
  g_autoptr(ChronoJobTable) job = NULL;
  guint matched = 0;
  GString *s;

  if (json == NULL || (job = chrono_job_table_new_from_data (json, -1, _("the job"), error)) == NULL)
    return NULL;

  for (guint i = 0; i < job->n_collectives; i++)
    matched += job->collectives[i].matched;
  s = g_string_new (NULL);
  g_string_append_printf (s, "# %s\n\n", _("Where the job's time goes"));
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u rank", "%u ranks", job->n_ranks), job->n_ranks);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, ", %u matched collective", ", %u matched collectives",
                                          matched),
                          matched);
  g_string_append (s, ".\n");
  if (job->limitations->len > 0)
    {
      g_string_append_printf (s, "\n## %s\n\n", _("What the job does not show"));
      for (guint i = 0; i < job->limitations->len; i++)
        g_string_append_printf (s, "- %s\n", (const char *) job->limitations->pdata[i]);
    }
  append_stragglers (s, job);
  append_ranks (s, job);
  append_steps (s, job);
  append_findings (s, summaries, n_summaries);
  return g_string_free (s, FALSE);
}
