/* chrono-track-builder.c: tracks while they are read: their full-width
 * columns, grown as events come, and one half appended to the other
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-huge-pages.h"
#include "chrono-track-builder.h"

guint
chrono_track_key_hash (gconstpointer key)
{
  const ChronoTrackKey *k = key;
  guint64 h = ((guint64) k->process << 8) ^ k->type ^ ((guint64) k->tid.is_string << 7);

  h ^= (guint64) k->tid.value * 0x9e3779b97f4a7c15ull;
  return (guint) (h ^ (h >> 32));
}

gboolean
chrono_track_key_equal (gconstpointer a,
                        gconstpointer b)
{
  const ChronoTrackKey *x = a;
  const ChronoTrackKey *y = b;

  return x->process == y->process && x->type == y->type &&
         x->tid.value == y->tid.value && x->tid.is_string == y->tid.is_string;
}

ChronoTrackBuilder *
chrono_track_builder_new (const ChronoTrackKey *key,
                          ChronoId              pid)
{
  ChronoTrackBuilder *self = g_new0 (ChronoTrackBuilder, 1);

  self->key = *key;
  self->pid = pid;
  self->track.type = key->type;
  self->track.process = key->process;
  self->track.tid = key->tid;
  return self;
}

void
chrono_track_builder_free (ChronoTrackBuilder *self)
{
  if (self == NULL)
    return;
  g_free (self->dur);
  g_free (self->name_id);
  g_free (self->cat);
  g_free (self->args_off);
  g_free (self->correlation);
  g_free (self->inst_name);
  g_free (self->inst_cat);
  g_free (self->inst_args_off);
  chrono_track_clear (&self->track);
  if (self->marks)
    g_array_unref (self->marks);
  g_free (self->new_index);
  g_free (self);
}

/* Doubling: every growth copies the columns, so grow rarely. The final
 * size is trimmed when the track is taken. */
static guint32
grow_capacity (guint32 cap)
{
  if (cap < 16)
    return 16;
  return cap <= G_MAXUINT32 / 2 ? cap * 2 : G_MAXUINT32;
}

/* Columns from this size ask for transparent huge pages: one fault makes
 * 2 MiB ready where 4 KiB pages take 512, and growing a column this large
 * moves its mapping (mremap) with the hint. Smaller ones would round up. */
#define HUGE_COLUMN ((gsize) 8 << 20)

static gpointer
renew_column (gpointer p,
              gsize    bytes)
{
  p = g_realloc (p, bytes);
  if (bytes >= HUGE_COLUMN)
    chrono_huge_pages_advise (p, bytes);
  return p;
}

#define RENEW_COLUMN(type, p, n) ((type *) renew_column ((p), sizeof (type) * (gsize) (n)))

guint32
chrono_track_builder_add_span (ChronoTrackBuilder *self,
                               gint64              start,
                               gint64              dur,
                               guint32             name,
                               guint32             cat,
                               guint64             args_off,
                               guint8              kind,
                               guint8              flags)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_spans;

  if (G_UNLIKELY (i == self->cap_spans))
    {
      guint32 cap = grow_capacity (self->cap_spans);

      t->start = RENEW_COLUMN (gint64, t->start, cap);
      self->dur = RENEW_COLUMN (gint64, self->dur, cap);
      self->name_id = RENEW_COLUMN (guint32, self->name_id, cap);
      self->cat = RENEW_COLUMN (guint32, self->cat, cap);
      self->args_off = RENEW_COLUMN (guint64, self->args_off, cap);
      t->kind = RENEW_COLUMN (guint8, t->kind, cap);
      t->flags = RENEW_COLUMN (guint8, t->flags, cap);
      if (self->correlation)
        self->correlation = RENEW_COLUMN (gint64, self->correlation, cap);
      self->cap_spans = cap;
    }
  t->start[i] = start;
  self->dur[i] = dur;
  self->name_id[i] = name;
  self->cat[i] = cat;
  self->args_off[i] = args_off;
  t->kind[i] = kind;
  t->flags[i] = flags;
  if (self->correlation)
    self->correlation[i] = -1;
  t->n_spans = i + 1;
  return i;
}

void
chrono_track_builder_set_correlation (ChronoTrackBuilder *self,
                                      guint32             index,
                                      gint64              value)
{
  /* A side column: only tracks with launches or GPU work have one. */
  if (self->correlation == NULL)
    {
      self->correlation = g_new (gint64, self->cap_spans);
      for (guint32 i = 0; i < self->track.n_spans; i++)
        self->correlation[i] = -1;
    }
  self->correlation[index] = value;
}

void
chrono_track_builder_add_mark (ChronoTrackBuilder *self,
                               const ChronoMark   *mark)
{
  if (self->marks == NULL)
    self->marks = g_array_new (FALSE, FALSE, sizeof (ChronoMark));
  g_array_append_val (self->marks, *mark);
}

void
chrono_track_builder_add_instant (ChronoTrackBuilder *self,
                                  gint64              ts,
                                  guint32             name,
                                  guint32             cat,
                                  guint64             args_off)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_instants;

  if (G_UNLIKELY (i == self->cap_instants))
    {
      guint32 cap = grow_capacity (self->cap_instants);

      t->inst_ts = RENEW_COLUMN (gint64, t->inst_ts, cap);
      self->inst_name = RENEW_COLUMN (guint32, self->inst_name, cap);
      self->inst_cat = RENEW_COLUMN (guint32, self->inst_cat, cap);
      self->inst_args_off = RENEW_COLUMN (guint64, self->inst_args_off, cap);
      self->cap_instants = cap;
    }
  t->inst_ts[i] = ts;
  self->inst_name[i] = name;
  self->inst_cat[i] = cat;
  self->inst_args_off[i] = args_off;
  t->n_instants = i + 1;
}

void
chrono_track_builder_add_sample (ChronoTrackBuilder *self,
                                 gint64              ts,
                                 gdouble             value)
{
  ChronoTrack *t = &self->track;
  guint32 i = t->n_samples;

  if (G_UNLIKELY (i == self->cap_samples))
    {
      guint32 cap = grow_capacity (self->cap_samples);

      t->sample_ts = RENEW_COLUMN (gint64, t->sample_ts, cap);
      t->sample_value = RENEW_COLUMN (gdouble, t->sample_value, cap);
      self->cap_samples = cap;
    }
  t->sample_ts[i] = ts;
  t->sample_value[i] = value;
  t->n_samples = i + 1;
}

/* The columns of SELF, which it keeps for nothing but its key after an
 * append. */
static void
release_columns (ChronoTrackBuilder *self)
{
  ChronoTrack *t = &self->track;

  g_clear_pointer (&self->dur, g_free);
  g_clear_pointer (&self->name_id, g_free);
  g_clear_pointer (&self->cat, g_free);
  g_clear_pointer (&self->args_off, g_free);
  g_clear_pointer (&self->correlation, g_free);
  g_clear_pointer (&self->inst_name, g_free);
  g_clear_pointer (&self->inst_cat, g_free);
  g_clear_pointer (&self->inst_args_off, g_free);
  g_clear_pointer (&self->marks, g_array_unref);
  chrono_track_clear (t);
  /* What names the track stays; its contents go. */
  *t = (ChronoTrack) { .type = t->type, .process = t->process, .tid = t->tid, .name = t->name,
                       .display_name = t->display_name, .sort_index = t->sort_index,
                       .has_sort_index = t->has_sort_index };
  self->cap_spans = self->cap_instants = self->cap_samples = 0;
}

void
chrono_track_builder_append (ChronoTrackBuilder *self,
                             ChronoTrackBuilder *src,
                             const guint32      *strings,
                             guint32             v2_offset)
{
  const ChronoTrack *t = &src->track;

  self->merge_offset = self->track.n_spans;
  for (guint32 i = 0; i < t->n_spans; i++)
    {
      guint32 index = chrono_track_builder_add_span (self, t->start[i], src->dur[i],
                                                     strings[src->name_id[i]], strings[src->cat[i]],
                                                     src->args_off[i], t->kind[i], t->flags[i]);
      if (src->correlation && src->correlation[i] >= 0)
        chrono_track_builder_set_correlation (self, index, src->correlation[i]);
    }
  for (guint32 i = 0; i < t->n_instants; i++)
    chrono_track_builder_add_instant (self, t->inst_ts[i], strings[src->inst_name[i]], strings[src->inst_cat[i]],
                                      src->inst_args_off[i]);
  for (guint32 i = 0; i < t->n_samples; i++)
    chrono_track_builder_add_sample (self, t->sample_ts[i], t->sample_value[i]);
  for (guint i = 0; src->marks != NULL && i < src->marks->len; i++)
    {
      ChronoMark mark = g_array_index (src->marks, ChronoMark, i);

      mark.name = strings[mark.name];
      mark.cat = strings[mark.cat];
      if (mark.bind != G_MAXUINT32)
        mark.bind += v2_offset;
      chrono_track_builder_add_mark (self, &mark);
    }
  self->device_votes += src->device_votes;
  self->host_votes += src->host_votes;
  /* Later metadata wins, as in one pass. */
  if (t->name != CHRONO_NO_STRING)
    self->track.name = strings[t->name];
  if (t->has_sort_index)
    {
      self->track.sort_index = t->sort_index;
      self->track.has_sort_index = TRUE;
    }
  /* Freed track by track, not with the whole half: two copies of a
   * large trace's columns would otherwise be the peak of its load. */
  release_columns (src);
}
