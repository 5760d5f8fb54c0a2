/* chrono-job.c: the analysis of a job from its ranks' summaries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-job.h"
#include "chrono-json-util.h"

/* A robust z-score over the ranks above this is an outlier; 3.5 is
 * Iglewicz and Hoaglin's cut for the modified z-score. */
#define OUTLIER_Z 3.5
/* ... and only when the share differs by at least this (percentage
 * points of the window), so ranks that agree to the microsecond are not
 * told apart by noise. */
#define OUTLIER_MIN_POINTS 5.0
/* A rank whose transfers take longer than the best rank's by this factor
 * (and by more than the clocks resolve) moves data slower. */
#define SLOW_TRANSFER_RATIO 0.8
#define TRANSFER_RESOLUTION_NS 5000
#define MAX_RANKING 16

typedef struct {
  guint rank;                   /* index into the sorted ranks */
  guint coll;                   /* index into its summary's collectives */
  gint64 start;                 /* aligned */
  gint64 end;
  gint64 lateness;              /* start minus the median start */
} Member;

/* The same collective on every rank that ran it: the k-th of its group. */
typedef struct {
  const char *group;            /* NULL: the trace names none */
  guint       k;
  const char *name;
  gint64      bytes;
  gboolean    mismatched;       /* the ranks name different collectives here */
  GArray     *members;          /* Member, by rank */
  gint64      first;
  gint64      last;
  gint64      median;
  guint       last_rank;
  gint64      wait_ns;          /* what the others waited for the last */
} Match;

typedef struct {
  const ChronoRankSummary *s;
  gint64   offset;              /* its clock minus the reference's */
  gint64   spread;
  guint    n_aligned;
  GArray  *lateness;            /* gint64 per matched collective */
  gint64  *coll_lateness;       /* per collective of its summary; G_MININT64 unmatched */
  gint64   median_lateness;
  gint64   late_ns;
  guint    times_last;
  gint64   wait_caused_ns;
  gint64   window_ns;
  gint64   state_ns[CHRONO_N_LEDGER_STATES];
} RankState;

typedef struct {
  const ChronoAnalysisThresholds *th;
  guint       n_ranks;
  RankState  *ranks;
  GArray     *matches;          /* Match */
  GHashTable *match_of;         /* "group\nk" -> index + 1 */
  guint       n_mismatched;
  JsonBuilder *b;
} Job;

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static gint64
median_of (gint64 *values,
           guint   n)
{
  if (n == 0)
    return 0;
  qsort (values, n, sizeof (gint64), compare_int64);
  return values[(n - 1) / 2] + (values[n / 2] - values[(n - 1) / 2]) / 2;
}

static gint
compare_summaries (gconstpointer a,
                   gconstpointer b)
{
  const ChronoRankSummary *x = *(ChronoRankSummary * const *) a;
  const ChronoRankSummary *y = *(ChronoRankSummary * const *) b;

  /* Ranks the files name first, in order; then the others by file. */
  if ((x->rank < 0) != (y->rank < 0))
    return x->rank < 0 ? 1 : -1;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return g_strcmp0 (x->path, y->path);
}

static const char *
collective_name (const ChronoSummaryCollective *c)
{
  return c->collective ? c->collective : c->name;
}

static void
match_clear (Match *m)
{
  g_clear_pointer (&m->members, g_array_unref);
}

/* The k-th collective of each group on each rank is one collective. */
static void
match_collectives (Job *job)
{
  for (guint r = 0; r < job->n_ranks; r++)
    {
      GArray *list = job->ranks[r].s->collectives;
      g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

      for (guint i = 0; i < list->len; i++)
        {
          const ChronoSummaryCollective *c = &g_array_index (list, ChronoSummaryCollective, i);
          const char *group = c->group ? c->group : "";
          guint k = GPOINTER_TO_UINT (g_hash_table_lookup (seen, group));
          g_autofree char *key = g_strdup_printf ("%s\n%u", group, k);
          guint index = GPOINTER_TO_UINT (g_hash_table_lookup (job->match_of, key));
          Member member = { r, i, c->start_ns, c->end_ns, 0 };
          Match *m;

          g_hash_table_replace (seen, g_strdup (group), GUINT_TO_POINTER (k + 1));
          if (index == 0)
            {
              Match fresh = {
                .group = c->group, .k = k, .name = collective_name (c), .bytes = c->bytes,
                .members = g_array_new (FALSE, FALSE, sizeof (Member)),
              };

              g_array_append_val (job->matches, fresh);
              index = job->matches->len;
              g_hash_table_insert (job->match_of, g_steal_pointer (&key), GUINT_TO_POINTER (index));
            }
          m = &g_array_index (job->matches, Match, index - 1);
          if (strcmp (m->name, collective_name (c)) != 0 && !m->mismatched)
            {
              m->mismatched = TRUE;
              job->n_mismatched++;
            }
          g_array_append_val (m->members, member);
        }
    }
}

static gboolean
match_usable (const Match *m)
{
  return !m->mismatched && m->members->len >= 2;
}

/* Collectives end together on every rank: the median difference of a
 * rank's ends from the reference rank's is the difference of the clocks. */
static void
align_clocks (Job *job)
{
  g_autoptr(GArray) diffs = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint r = 1; r < job->n_ranks; r++)
    {
      RankState *rs = &job->ranks[r];

      g_array_set_size (diffs, 0);
      for (guint i = 0; i < job->matches->len; i++)
        {
          const Match *m = &g_array_index (job->matches, Match, i);
          const Member *ref = &g_array_index (m->members, Member, 0);

          if (!match_usable (m) || ref->rank != 0)
            continue;
          for (guint j = 1; j < m->members->len; j++)
            {
              const Member *mine = &g_array_index (m->members, Member, j);

              if (mine->rank == r)
                {
                  gint64 d = mine->end - ref->end;
                  g_array_append_val (diffs, d);
                }
            }
        }
      rs->n_aligned = diffs->len;
      if (diffs->len == 0)
        continue;
      rs->offset = median_of ((gint64 *) diffs->data, diffs->len);
      for (guint i = 0; i < diffs->len; i++)
        g_array_index (diffs, gint64, i) = ABS (g_array_index (diffs, gint64, i) - rs->offset);
      rs->spread = median_of ((gint64 *) diffs->data, diffs->len);
    }
  job->ranks[0].n_aligned = 0;
  for (guint i = 0; i < job->matches->len; i++)
    {
      Match *m = &g_array_index (job->matches, Match, i);

      for (guint j = 0; j < m->members->len; j++)
        {
          Member *mb = &g_array_index (m->members, Member, j);

          mb->start -= job->ranks[mb->rank].offset;
          mb->end -= job->ranks[mb->rank].offset;
        }
    }
}

static void
measure_matches (Job *job)
{
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < job->matches->len; i++)
    {
      Match *m = &g_array_index (job->matches, Match, i);

      if (!match_usable (m))
        continue;
      g_array_set_size (starts, 0);
      m->first = G_MAXINT64;
      m->last = G_MININT64;
      for (guint j = 0; j < m->members->len; j++)
        {
          const Member *mb = &g_array_index (m->members, Member, j);

          g_array_append_val (starts, mb->start);
          m->first = MIN (m->first, mb->start);
          if (mb->start > m->last)
            {
              m->last = mb->start;
              m->last_rank = mb->rank;
            }
        }
      m->median = median_of ((gint64 *) starts->data, starts->len);
      for (guint j = 0; j < m->members->len; j++)
        {
          Member *mb = &g_array_index (m->members, Member, j);
          RankState *rs = &job->ranks[mb->rank];

          mb->lateness = mb->start - m->median;
          m->wait_ns += MAX (0, MIN (m->last, mb->end) - mb->start);
          g_array_append_val (rs->lateness, mb->lateness);
          rs->coll_lateness[mb->coll] = mb->lateness;
          rs->late_ns += MAX (0, mb->lateness);
        }
      if (m->last - m->first >= job->th->straggler_min_skew_ns)
        {
          job->ranks[m->last_rank].times_last++;
          job->ranks[m->last_rank].wait_caused_ns += m->wait_ns;
        }
    }
  for (guint r = 0; r < job->n_ranks; r++)
    {
      RankState *rs = &job->ranks[r];
      g_autoptr(GArray) copy = g_array_copy (rs->lateness);

      rs->median_lateness = median_of ((gint64 *) copy->data, copy->len);
    }
}

static gboolean
is_straggler (Job             *job,
              const RankState *rs)
{
  return rs->lateness->len >= 2 && rs->median_lateness >= job->th->straggler_min_skew_ns;
}

static void
sum_ledgers (Job *job)
{
  for (guint r = 0; r < job->n_ranks; r++)
    {
      RankState *rs = &job->ranks[r];

      for (guint i = 0; i < rs->s->ledger->len; i++)
        {
          const ChronoSummaryLedger *l = &g_array_index (rs->s->ledger, ChronoSummaryLedger, i);

          if (l->step != -1)
            continue;
          rs->window_ns += l->end_ns - l->start_ns;
          for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
            rs->state_ns[s] += l->state_ns[s];
        }
    }
}

/* -------------------------------------------------------------------- */
/* Writing                                                              */

static void
add_rank_id (Job        *job,
             const char *key,
             guint       r)
{
  chrono_json_add_int (job->b, key, job->ranks[r].s->rank);
}

static void
add_optional_string (JsonBuilder *b,
                     const char  *key,
                     const char  *value)
{
  if (value != NULL)
    chrono_json_add_string (b, key, value);
}

static void
write_ranks (Job *job)
{
  JsonBuilder *b = job->b;

  json_builder_set_member_name (b, "ranks");
  json_builder_begin_array (b);
  for (guint r = 0; r < job->n_ranks; r++)
    {
      const RankState *rs = &job->ranks[r];

      json_builder_begin_object (b);
      add_rank_id (job, "rank", r);
      chrono_json_add_string (b, "path", rs->s->path);
      chrono_json_add_int (b, "world_size", rs->s->world_size);
      chrono_json_add_int (b, "base_time_ns", rs->s->base_time_ns);
      chrono_json_add_int (b, "first_ns", rs->s->first_ns);
      chrono_json_add_int (b, "clock_offset_ns", rs->offset);
      chrono_json_add_int (b, "clock_spread_ns", rs->spread);
      chrono_json_add_int (b, "collectives_aligned", rs->n_aligned);
      chrono_json_add_int (b, "steps", rs->s->steps->len);
      chrono_json_add_int (b, "collectives", rs->s->collectives->len);
      chrono_json_add_int (b, "late_ns", rs->late_ns);
      chrono_json_add_int (b, "median_lateness_ns", rs->median_lateness);
      chrono_json_add_int (b, "times_last", rs->times_last);
      chrono_json_add_int (b, "wait_caused_ns", rs->wait_caused_ns);
      chrono_json_add_int (b, "findings", rs->s->findings->len);
      json_builder_set_member_name (b, "ledger");
      json_builder_begin_object (b);
      chrono_json_add_int (b, "window_ns", rs->window_ns);
      for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
        {
          g_autofree char *key = g_strdup_printf ("%s_ns", chrono_ledger_state_to_string (s));
          chrono_json_add_int (b, key, rs->state_ns[s]);
        }
      json_builder_end_object (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
write_alignment (Job *job)
{
  JsonBuilder *b = job->b;

  json_builder_set_member_name (b, "alignment");
  json_builder_begin_object (b);
  add_rank_id (job, "reference_rank", 0);
  chrono_json_add_int (b, "min_offset_ns", job->th->straggler_min_skew_ns);
  json_builder_set_member_name (b, "offsets");
  json_builder_begin_array (b);
  for (guint r = 1; r < job->n_ranks; r++)
    {
      const RankState *rs = &job->ranks[r];

      if (ABS (rs->offset) < job->th->straggler_min_skew_ns)
        continue;
      json_builder_begin_object (b);
      add_rank_id (job, "rank", r);
      chrono_json_add_int (b, "offset_ns", rs->offset);
      chrono_json_add_int (b, "spread_ns", rs->spread);
      chrono_json_add_int (b, "collectives", rs->n_aligned);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* Each rank's arrival after the first, in the order of the ranks; null
 * for a rank that took no part. */
static void
write_arrivals (Job         *job,
                const Match *m)
{
  g_autofree const Member **of_rank = g_new0 (const Member *, job->n_ranks);
  JsonBuilder *b = job->b;

  for (guint j = 0; j < m->members->len; j++)
    {
      const Member *mb = &g_array_index (m->members, Member, j);

      of_rank[mb->rank] = mb;
    }
  json_builder_set_member_name (b, "arrival_ns");
  json_builder_begin_array (b);
  for (guint r = 0; r < job->n_ranks; r++)
    if (of_rank[r] != NULL)
      json_builder_add_int_value (b, of_rank[r]->start - m->first);
    else
      json_builder_add_null_value (b);
  json_builder_end_array (b);
}

static void
write_collectives (Job *job)
{
  JsonBuilder *b = job->b;

  json_builder_set_member_name (b, "collectives");
  json_builder_begin_array (b);
  for (guint i = 0; i < job->matches->len; i++)
    {
      const Match *m = &g_array_index (job->matches, Match, i);

      json_builder_begin_object (b);
      chrono_json_add_int (b, "index", i);
      add_optional_string (b, "group", m->group);
      chrono_json_add_int (b, "k", m->k);
      chrono_json_add_string (b, "name", m->name);
      if (m->bytes >= 0)
        chrono_json_add_int (b, "bytes", m->bytes);
      chrono_json_add_int (b, "ranks", m->members->len);
      if (m->mismatched)
        {
          json_builder_set_member_name (b, "mismatched");
          json_builder_add_boolean_value (b, TRUE);
        }
      else if (match_usable (m))
        {
          chrono_json_add_int (b, "first_arrival_ns", m->first);
          chrono_json_add_int (b, "skew_ns", m->last - m->first);
          add_rank_id (job, "last_rank", m->last_rank);
          chrono_json_add_int (b, "wait_ns", m->wait_ns);
          write_arrivals (job, m);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static gint
compare_late (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const RankState *ranks = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (ranks[x].late_ns != ranks[y].late_ns)
    return ranks[x].late_ns > ranks[y].late_ns ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
write_straggler_entry (Job *job,
                       guint r)
{
  const RankState *rs = &job->ranks[r];
  JsonBuilder *b = job->b;

  json_builder_begin_object (b);
  add_rank_id (job, "rank", r);
  chrono_json_add_int (b, "late_ns", rs->late_ns);
  chrono_json_add_int (b, "median_lateness_ns", rs->median_lateness);
  chrono_json_add_int (b, "times_last", rs->times_last);
  chrono_json_add_int (b, "collectives", rs->lateness->len);
  chrono_json_add_int (b, "wait_caused_ns", rs->wait_caused_ns);
  json_builder_set_member_name (b, "straggler");
  json_builder_add_boolean_value (b, is_straggler (job, rs));
  json_builder_end_object (b);
}

static void
write_stragglers (Job *job)
{
  g_autofree guint *order = g_new (guint, job->n_ranks);
  JsonBuilder *b = job->b;

  for (guint r = 0; r < job->n_ranks; r++)
    order[r] = r;
  g_qsort_with_data (order, job->n_ranks, sizeof (guint), compare_late, job->ranks);

  json_builder_set_member_name (b, "stragglers");
  json_builder_begin_array (b);
  for (guint i = 0; i < job->n_ranks; i++)
    if (is_straggler (job, &job->ranks[order[i]]))
      write_straggler_entry (job, order[i]);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "straggler_ranking");
  json_builder_begin_array (b);
  for (guint i = 0; i < MIN (job->n_ranks, MAX_RANKING); i++)
    if (job->ranks[order[i]].late_ns > 0)
      write_straggler_entry (job, order[i]);
  json_builder_end_array (b);
}

/* Arrivals later than the rank's usual by at least the straggler skew:
 * one-off delays, apart from a straggler's steady one. */
static void
write_late_arrivals (Job *job)
{
  JsonBuilder *b = job->b;

  json_builder_set_member_name (b, "late_arrivals");
  json_builder_begin_array (b);
  for (guint i = 0; i < job->matches->len; i++)
    {
      const Match *m = &g_array_index (job->matches, Match, i);

      for (guint j = 0; match_usable (m) && j < m->members->len; j++)
        {
          const Member *mb = &g_array_index (m->members, Member, j);
          gint64 beyond = mb->lateness - job->ranks[mb->rank].median_lateness;

          if (beyond < job->th->straggler_min_skew_ns)
            continue;
          json_builder_begin_object (b);
          chrono_json_add_int (b, "collective", i);
          add_rank_id (job, "rank", mb->rank);
          chrono_json_add_string (b, "name", m->name);
          chrono_json_add_int (b, "late_ns", mb->lateness);
          chrono_json_add_int (b, "beyond_usual_ns", beyond);
          chrono_json_add_int (b, "skew_ns", m->last - m->first);
          json_builder_set_member_name (b, "last");
          json_builder_add_boolean_value (b, mb->rank == m->last_rank);
          json_builder_end_object (b);
        }
    }
  json_builder_end_array (b);
}

/* Steps by name; per rank its duration and how late it came to the
 * step's collectives. */
static void
write_steps (Job *job)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GHashTable) index_of = g_hash_table_new (g_str_hash, g_str_equal);
  JsonBuilder *b = job->b;

  for (guint r = 0; r < job->n_ranks; r++)
    for (guint k = 0; k < job->ranks[r].s->steps->len; k++)
      {
        const char *name = g_array_index (job->ranks[r].s->steps, ChronoSummaryStep, k).name;

        if (!g_hash_table_contains (index_of, name))
          {
            g_hash_table_insert (index_of, (gpointer) name, GUINT_TO_POINTER (names->len));
            g_ptr_array_add (names, (gpointer) name);
          }
      }

  json_builder_set_member_name (b, "steps");
  json_builder_begin_array (b);
  for (guint k = 0; k < names->len; k++)
    {
      g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) lateness = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autofree gint64 *late = g_new0 (gint64, job->n_ranks);
      g_autofree gint64 *dur = g_new0 (gint64, job->n_ranks);
      g_autofree gint64 *start = g_new0 (gint64, job->n_ranks);
      g_autofree gboolean *has = g_new0 (gboolean, job->n_ranks);

      for (guint r = 0; r < job->n_ranks; r++)
        {
          const ChronoRankSummary *s = job->ranks[r].s;

          for (guint i = 0; i < s->steps->len; i++)
            {
              const ChronoSummaryStep *st = &g_array_index (s->steps, ChronoSummaryStep, i);

              if (strcmp (st->name, names->pdata[k]) != 0)
                continue;
              has[r] = TRUE;
              dur[r] = st->end_ns - st->start_ns;
              start[r] = st->start_ns - job->ranks[r].offset;
              g_array_append_val (durations, dur[r]);
              g_array_set_size (lateness, 0);
              for (guint c = 0; c < s->collectives->len; c++)
                if (g_array_index (s->collectives, ChronoSummaryCollective, c).step == (gint) i &&
                    job->ranks[r].coll_lateness[c] != G_MININT64)
                  g_array_append_val (lateness, job->ranks[r].coll_lateness[c]);
              late[r] = lateness->len ? median_of ((gint64 *) lateness->data, lateness->len) : 0;
              break;
            }
        }

      json_builder_begin_object (b);
      chrono_json_add_string (b, "name", names->pdata[k]);
      chrono_json_add_int (b, "ranks", durations->len);
      chrono_json_add_int (b, "median_duration_ns", median_of ((gint64 *) durations->data, durations->len));
      json_builder_set_member_name (b, "duration_ns");
      json_builder_begin_array (b);
      for (guint r = 0; r < job->n_ranks; r++)
        if (has[r])
          json_builder_add_int_value (b, dur[r]);
        else
          json_builder_add_null_value (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "start_ns");
      json_builder_begin_array (b);
      for (guint r = 0; r < job->n_ranks; r++)
        if (has[r])
          json_builder_add_int_value (b, start[r]);
        else
          json_builder_add_null_value (b);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "slow_ranks");
      json_builder_begin_array (b);
      for (guint r = 0; r < job->n_ranks; r++)
        if (has[r] && late[r] >= job->th->straggler_min_skew_ns)
          {
            json_builder_begin_object (b);
            add_rank_id (job, "rank", r);
            chrono_json_add_int (b, "median_lateness_ns", late[r]);
            chrono_json_add_int (b, "duration_ns", dur[r]);
            json_builder_end_object (b);
          }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

typedef struct {
  const char *id;
  guint       states;           /* mask of ChronoLedgerState */
} Measure;

static void
write_ledger_outliers (Job *job)
{
  static const Measure measures[] = {
    { "idle", ((1u << CHRONO_N_LEDGER_STATES) - 1) & ~((1u << CHRONO_LEDGER_COMPUTE) |
                                                       (1u << CHRONO_LEDGER_COMMUNICATION) |
                                                       (1u << CHRONO_LEDGER_COPY)) },
    { "communication", 1u << CHRONO_LEDGER_COMMUNICATION },
    { "compute", 1u << CHRONO_LEDGER_COMPUTE },
    { "copy", 1u << CHRONO_LEDGER_COPY },
  };
  g_autofree gint64 *points = g_new (gint64, job->n_ranks);  /* hundredths of a percent */
  g_autofree gint64 *sorted = g_new (gint64, job->n_ranks);
  JsonBuilder *b = job->b;

  json_builder_set_member_name (b, "ledger_outliers");
  json_builder_begin_array (b);
  for (guint mi = 0; mi < G_N_ELEMENTS (measures); mi++)
    {
      gint64 median, mad;
      guint n = 0;

      for (guint r = 0; r < job->n_ranks; r++)
        {
          const RankState *rs = &job->ranks[r];
          gint64 ns = 0;

          for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
            if (measures[mi].states & (1u << s))
              ns += rs->state_ns[s];
          points[r] = rs->window_ns > 0 ? (gint64) llround (10000.0 * ns / rs->window_ns) : -1;
          if (points[r] >= 0)
            sorted[n++] = points[r];
        }
      if (n < 3)
        continue;
      median = median_of (sorted, n);
      n = 0;
      for (guint r = 0; r < job->n_ranks; r++)
        if (points[r] >= 0)
          sorted[n++] = ABS (points[r] - median);
      mad = median_of (sorted, n);
      for (guint r = 0; r < job->n_ranks; r++)
        {
          gint64 diff = points[r] - median;
          gdouble z = mad > 0 ? 0.6745 * diff / mad : (diff != 0 ? INFINITY : 0);

          if (points[r] < 0 || fabs (z) < OUTLIER_Z || ABS (diff) < OUTLIER_MIN_POINTS * 100)
            continue;
          json_builder_begin_object (b);
          add_rank_id (job, "rank", r);
          chrono_json_add_string (b, "measure", measures[mi].id);
          chrono_json_add_string (b, "direction", diff > 0 ? "more" : "less");
          json_builder_set_member_name (b, "percent");
          json_builder_add_double_value (b, points[r] / 100.0);
          json_builder_set_member_name (b, "median_percent");
          json_builder_add_double_value (b, median / 100.0);
          json_builder_set_member_name (b, "z");
          if (isfinite (z))
            json_builder_add_double_value (b, round (z * 100) / 100);
          else
            json_builder_add_null_value (b);
          json_builder_end_object (b);
        }
    }
  json_builder_end_array (b);
}

/* Per collective and size, how long each rank's part took once the last
 * rank had arrived, against the rank that was quickest. */
static void
write_bandwidth (Job *job)
{
  g_autoptr(GHashTable) buckets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  JsonBuilder *b = job->b;

  for (guint i = 0; i < job->matches->len; i++)
    {
      const Match *m = &g_array_index (job->matches, Match, i);
      g_autofree char *key = NULL;

      if (!match_usable (m))
        continue;
      key = g_strdup_printf ("%s\n%" G_GINT64_FORMAT, m->name, m->bytes);
      if (!g_hash_table_contains (buckets, key))
        {
          g_ptr_array_add (keys, GUINT_TO_POINTER (i));
          g_hash_table_insert (buckets, g_steal_pointer (&key), GUINT_TO_POINTER (i));
        }
    }

  json_builder_set_member_name (b, "bandwidth");
  json_builder_begin_array (b);
  for (guint ki = 0; ki < keys->len; ki++)
    {
      const Match *first = &g_array_index (job->matches, Match, GPOINTER_TO_UINT (keys->pdata[ki]));
      g_autoptr(GPtrArray) per_rank = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_autofree gint64 *median = g_new (gint64, job->n_ranks);
      gint64 best = G_MAXINT64;
      guint best_rank = 0, n_collectives = 0;

      for (guint r = 0; r < job->n_ranks; r++)
        g_ptr_array_add (per_rank, g_array_new (FALSE, FALSE, sizeof (gint64)));
      for (guint i = 0; i < job->matches->len; i++)
        {
          const Match *m = &g_array_index (job->matches, Match, i);

          if (!match_usable (m) || strcmp (m->name, first->name) != 0 || m->bytes != first->bytes)
            continue;
          n_collectives++;
          for (guint j = 0; j < m->members->len; j++)
            {
              const Member *mb = &g_array_index (m->members, Member, j);
              gint64 t = MAX (0, mb->end - MAX (mb->start, m->last));

              g_array_append_val ((GArray *) per_rank->pdata[mb->rank], t);
            }
        }
      for (guint r = 0; r < job->n_ranks; r++)
        {
          GArray *a = per_rank->pdata[r];

          median[r] = a->len ? median_of ((gint64 *) a->data, a->len) : -1;
          if (median[r] >= 0 && median[r] < best)
            {
              best = median[r];
              best_rank = r;
            }
        }

      json_builder_begin_object (b);
      chrono_json_add_string (b, "name", first->name);
      if (first->bytes >= 0)
        chrono_json_add_int (b, "bytes", first->bytes);
      chrono_json_add_int (b, "collectives", n_collectives);
      add_rank_id (job, "best_rank", best_rank);
      chrono_json_add_int (b, "best_transfer_ns", best);
      if (first->bytes >= 0 && best > 0)
        {
          json_builder_set_member_name (b, "best_gb_per_s");
          json_builder_add_double_value (b, round (100.0 * first->bytes / best) / 100);
        }
      json_builder_set_member_name (b, "slow_ranks");
      json_builder_begin_array (b);
      for (guint r = 0; r < job->n_ranks; r++)
        {
          if (median[r] <= 0 || median[r] - best < TRANSFER_RESOLUTION_NS ||
              (gdouble) best / median[r] >= SLOW_TRANSFER_RATIO)
            continue;
          json_builder_begin_object (b);
          add_rank_id (job, "rank", r);
          chrono_json_add_int (b, "transfer_ns", median[r]);
          json_builder_set_member_name (b, "of_best");
          json_builder_add_double_value (b, round (100.0 * best / median[r]) / 100);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_limitation (JsonBuilder *b,
                const char  *id,
                const char  *message)
{
  json_builder_begin_object (b);
  chrono_json_add_string (b, "id", id);
  chrono_json_add_string (b, "message", message);
  json_builder_end_object (b);
}

static void
write_limitations (Job *job)
{
  JsonBuilder *b = job->b;
  gint world = -1;
  guint unaligned = 0, sized = 0, usable = 0;

  for (guint r = 0; r < job->n_ranks; r++)
    {
      world = MAX (world, job->ranks[r].s->world_size);
      if (r > 0 && job->ranks[r].n_aligned == 0)
        unaligned++;
    }
  for (guint i = 0; i < job->matches->len; i++)
    {
      const Match *m = &g_array_index (job->matches, Match, i);

      usable += match_usable (m);
      sized += match_usable (m) && m->bytes >= 0;
    }

  json_builder_set_member_name (b, "limitations");
  json_builder_begin_array (b);
  if (world > 0 && (guint) world > job->n_ranks)
    {
      g_autofree char *msg = g_strdup_printf ("The job has %d ranks; %u are summarised: waits for the others are not seen",
                                              world, job->n_ranks);
      add_limitation (b, "missing-ranks", msg);
    }
  if (unaligned > 0)
    {
      g_autofree char *msg = g_strdup_printf ("%u ranks share no collective with the reference rank: their clocks "
                                              "are taken as they are", unaligned);
      add_limitation (b, "unaligned-clocks", msg);
    }
  if (job->n_mismatched > 0)
    {
      g_autofree char *msg = g_strdup_printf ("At %u collectives the ranks name different operations: they are left "
                                              "out of the matching", job->n_mismatched);
      add_limitation (b, "collective-mismatch", msg);
    }
  if (usable > 0 && sized == 0)
    add_limitation (b, "no-sizes", "The traces give no message sizes (“In msg nelems” and “dtype” of "
                    "record_param_comms): bandwidth is given as transfer time only");
  if (job->n_ranks >= 2 && usable == 0)
    add_limitation (b, "no-collectives", "No collective is seen on two ranks: no clock alignment, skew or stragglers");
  json_builder_end_array (b);
}

JsonNode *
chrono_job_reduce (ChronoRankSummary * const      *summaries,
                   guint                           n_summaries,
                   const ChronoAnalysisThresholds *thresholds,
                   GError                        **error)
{
  g_autofree ChronoRankSummary **sorted = g_memdup2 (summaries, n_summaries * sizeof (ChronoRankSummary *));
  g_autoptr(JsonBuilder) b = json_builder_new ();
  ChronoAnalysisThresholds defaults;
  Job job = { 0 };

  g_return_val_if_fail (n_summaries == 0 || summaries != NULL, NULL);

  if (n_summaries == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "no rank summary given");
      return NULL;
    }
  if (thresholds == NULL)
    {
      chrono_analysis_thresholds_init (&defaults);
      thresholds = &defaults;
    }
  qsort (sorted, n_summaries, sizeof (ChronoRankSummary *), compare_summaries);
  for (guint i = 1; i < n_summaries; i++)
    if (sorted[i]->rank >= 0 && sorted[i]->rank == sorted[i - 1]->rank)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     "%s and %s both say they are rank %d", sorted[i - 1]->path, sorted[i]->path, sorted[i]->rank);
        return NULL;
      }

  job.th = thresholds;
  job.n_ranks = n_summaries;
  job.ranks = g_new0 (RankState, n_summaries);
  job.matches = g_array_new (FALSE, TRUE, sizeof (Match));
  g_array_set_clear_func (job.matches, (GDestroyNotify) match_clear);
  job.match_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  job.b = b;
  for (guint r = 0; r < n_summaries; r++)
    {
      job.ranks[r].s = sorted[r];
      job.ranks[r].lateness = g_array_new (FALSE, FALSE, sizeof (gint64));
      job.ranks[r].coll_lateness = g_new (gint64, sorted[r]->collectives->len);
      for (guint c = 0; c < sorted[r]->collectives->len; c++)
        job.ranks[r].coll_lateness[c] = G_MININT64;
    }

  match_collectives (&job);
  align_clocks (&job);
  measure_matches (&job);
  sum_ledgers (&job);

  json_builder_begin_object (b);
  chrono_json_add_string (b, "schema", CHRONO_JOB_SCHEMA);
  chrono_json_add_int (b, "n_ranks", job.n_ranks);
  chrono_json_add_int (b, "straggler_min_skew_ns", thresholds->straggler_min_skew_ns);
  write_limitations (&job);
  write_alignment (&job);
  write_stragglers (&job);
  write_late_arrivals (&job);
  write_steps (&job);
  write_ledger_outliers (&job);
  write_bandwidth (&job);
  write_collectives (&job);
  write_ranks (&job);
  json_builder_end_object (b);

  for (guint r = 0; r < n_summaries; r++)
    {
      g_array_unref (job.ranks[r].lateness);
      g_free (job.ranks[r].coll_lateness);
    }
  g_free (job.ranks);
  g_array_unref (job.matches);
  g_hash_table_unref (job.match_of);
  return json_builder_get_root (b);
}

char *
chrono_job_reduce_to_json (ChronoRankSummary * const      *summaries,
                           guint                           n_summaries,
                           const ChronoAnalysisThresholds *thresholds,
                           GError                        **error)
{
  g_autoptr(JsonNode) root = chrono_job_reduce (summaries, n_summaries, thresholds, error);
  g_autoptr(JsonGenerator) gen = NULL;

  if (root == NULL)
    return NULL;
  gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}
