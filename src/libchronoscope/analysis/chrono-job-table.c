/* chrono-job-table.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "chrono-job.h"
#include "chrono-job-table.h"
#include "chrono-json-reader.h"

/* A job file says what it is in its first member; a trace names its rank
 * before its events. */
#define SNIFF_BYTES (64 * 1024)
/* Folder files read to tell ranks from other traces. */
#define SNIFF_MAX_FILES 4

void
chrono_job_table_free (ChronoJobTable *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_ranks; i++)
    g_free (self->ranks[i].path);
  for (guint i = 0; i < self->n_steps; i++)
    {
      g_free (self->steps[i].name);
      g_free (self->steps[i].duration_ns);
      g_free (self->steps[i].start_ns);
      g_clear_pointer (&self->steps[i].slow_ranks, g_array_unref);
    }
  for (guint i = 0; i < self->n_collectives; i++)
    {
      g_free (self->collectives[i].name);
      g_free (self->collectives[i].arrival_ns);
    }
  g_free (self->ranks);
  g_free (self->steps);
  g_free (self->collectives);
  g_clear_pointer (&self->stragglers, g_array_unref);
  g_clear_pointer (&self->ranking, g_array_unref);
  g_clear_pointer (&self->limitations, g_ptr_array_unref);
  g_free (self->name);
  g_free (self->dir);
  g_free (self);
}

gint
chrono_job_table_find_rank (ChronoJobTable *self,
                            gint            rank)
{
  for (guint i = 0; i < self->n_ranks; i++)
    if (self->ranks[i].rank == rank)
      return (gint) i;
  return -1;
}

/* A rank named by its number, as an index; fails when the job has none. */
static gboolean
read_rank_ref (ChronoJsonReader *r,
               ChronoJobTable   *self,
               JsonObject       *o,
               const char       *key,
               guint            *index)
{
  gint64 rank;
  gint i;

  if (!chrono_json_reader_int (r, o, key, TRUE, &rank))
    return FALSE;
  if (rank < G_MININT || rank > G_MAXINT || (i = chrono_job_table_find_rank (self, (gint) rank)) < 0)
    return chrono_json_reader_fail (r, "“%s” %" G_GINT64_FORMAT " is none of the job’s ranks", key, rank);
  *index = (guint) i;
  return TRUE;
}

static gboolean
read_ranks (ChronoJsonReader *r,
            ChronoJobTable   *self)
{
  JsonArray *a = chrono_json_reader_array (r, r->root, "ranks");

  if (a == NULL)
    return FALSE;
  self->n_ranks = json_array_get_length (a);
  self->ranks = g_new0 (ChronoJobRank, self->n_ranks);
  for (guint i = 0; i < self->n_ranks; i++)
    {
      ChronoJobRank *rank = &self->ranks[i];
      JsonObject *o = chrono_json_reader_element (r, a, "ranks", i);
      JsonNode *ledger_node;
      JsonObject *ledger;
      gint64 id, times_last, n_collectives;

      if (o == NULL ||
          !chrono_json_reader_int (r, o, "rank", TRUE, &id) ||
          !chrono_json_reader_string (r, o, "path", TRUE, &rank->path) ||
          !chrono_json_reader_int (r, o, "clock_offset_ns", TRUE, &rank->clock_offset_ns) ||
          !chrono_json_reader_int (r, o, "late_ns", TRUE, &rank->late_ns) ||
          !chrono_json_reader_int (r, o, "median_lateness_ns", TRUE, &rank->median_lateness_ns) ||
          !chrono_json_reader_int (r, o, "times_last", TRUE, &times_last) ||
          !chrono_json_reader_int (r, o, "collectives", TRUE, &n_collectives) ||
          !chrono_json_reader_int (r, o, "wait_caused_ns", TRUE, &rank->wait_caused_ns))
        return FALSE;
      if (id < -1 || id > G_MAXINT)
        return chrono_json_reader_fail (r, "“rank” should be -1 or a rank number");
      if (times_last < 0 || times_last > G_MAXUINT || n_collectives < 0 || n_collectives > G_MAXUINT)
        return chrono_json_reader_fail (r, "“times_last” and “collectives” should be counts");
      rank->rank = (gint) id;
      rank->times_last = (guint) times_last;
      rank->n_collectives = (guint) n_collectives;
      ledger_node = json_object_get_member (o, "ledger");
      if (ledger_node == NULL || !JSON_NODE_HOLDS_OBJECT (ledger_node))
        return chrono_json_reader_fail (r, "“ledger” should be an object");
      ledger = json_node_get_object (ledger_node);
      if (!chrono_json_reader_int (r, ledger, "window_ns", TRUE, &rank->window_ns))
        return FALSE;
      for (guint s = 0; s < CHRONO_N_LEDGER_STATES; s++)
        {
          g_autofree char *key = g_strdup_printf ("%s_ns", chrono_ledger_state_to_string (s));

          if (!chrono_json_reader_int (r, ledger, key, TRUE, &rank->state_ns[s]))
            return FALSE;
        }
    }
  for (guint i = 0; i < self->n_ranks; i++)
    for (guint j = i + 1; j < self->n_ranks; j++)
      if (self->ranks[i].rank == self->ranks[j].rank && self->ranks[i].rank != -1)
        {
          g_free (r->where);
          r->where = g_strdup_printf ("ranks[%u]", j);
          return chrono_json_reader_fail (r, "rank %d is also ranks[%u]", self->ranks[j].rank, i);
        }
  return TRUE;
}

static gboolean
read_steps (ChronoJsonReader *r,
            ChronoJobTable   *self)
{
  JsonArray *a = chrono_json_reader_array (r, r->root, "steps");

  if (a == NULL)
    return FALSE;
  self->n_steps = json_array_get_length (a);
  self->steps = g_new0 (ChronoJobStep, self->n_steps);
  for (guint i = 0; i < self->n_steps; i++)
    {
      ChronoJobStep *step = &self->steps[i];
      JsonObject *o = chrono_json_reader_element (r, a, "steps", i);
      JsonArray *slow;

      step->duration_ns = g_new (gint64, self->n_ranks);
      step->start_ns = g_new (gint64, self->n_ranks);
      step->slow_ranks = g_array_new (FALSE, FALSE, sizeof (guint));
      if (o == NULL ||
          !chrono_json_reader_string (r, o, "name", TRUE, &step->name) ||
          !chrono_json_reader_int (r, o, "median_duration_ns", TRUE, &step->median_duration_ns) ||
          !chrono_json_reader_nullable_int_array (r, o, "duration_ns", step->duration_ns, self->n_ranks,
                                                  CHRONO_JOB_MISSING) ||
          !chrono_json_reader_nullable_int_array (r, o, "start_ns", step->start_ns, self->n_ranks,
                                                  CHRONO_JOB_MISSING) ||
          (slow = chrono_json_reader_array (r, o, "slow_ranks")) == NULL)
        return FALSE;
      for (guint j = 0; j < json_array_get_length (slow); j++)
        {
          JsonNode *n = json_array_get_element (slow, j);
          guint index;

          if (!JSON_NODE_HOLDS_OBJECT (n))
            return chrono_json_reader_fail (r, "“slow_ranks”[%u] should be an object", j);
          if (!read_rank_ref (r, self, json_node_get_object (n), "rank", &index))
            return FALSE;
          g_array_append_val (step->slow_ranks, index);
        }
    }
  return TRUE;
}

static gboolean
read_collectives (ChronoJsonReader *r,
                  ChronoJobTable   *self)
{
  JsonArray *a = chrono_json_reader_array (r, r->root, "collectives");

  if (a == NULL)
    return FALSE;
  self->n_collectives = json_array_get_length (a);
  self->collectives = g_new0 (ChronoJobCollective, self->n_collectives);
  for (guint i = 0; i < self->n_collectives; i++)
    {
      ChronoJobCollective *c = &self->collectives[i];
      JsonObject *o = chrono_json_reader_element (r, a, "collectives", i);

      c->bytes = -1;
      c->arrival_ns = g_new (gint64, self->n_ranks);
      if (o == NULL ||
          !chrono_json_reader_string (r, o, "name", TRUE, &c->name) ||
          !chrono_json_reader_int (r, o, "bytes", FALSE, &c->bytes))
        return FALSE;
      c->matched = json_object_has_member (o, "first_arrival_ns");
      if (!c->matched)
        {
          for (guint k = 0; k < self->n_ranks; k++)
            c->arrival_ns[k] = CHRONO_JOB_MISSING;
          continue;
        }
      if (!chrono_json_reader_int (r, o, "first_arrival_ns", TRUE, &c->first_arrival_ns) ||
          !chrono_json_reader_int (r, o, "skew_ns", TRUE, &c->skew_ns) ||
          !read_rank_ref (r, self, o, "last_rank", &c->last_rank) ||
          !chrono_json_reader_int (r, o, "wait_ns", TRUE, &c->wait_ns) ||
          !chrono_json_reader_nullable_int_array (r, o, "arrival_ns", c->arrival_ns, self->n_ranks,
                                                  CHRONO_JOB_MISSING))
        return FALSE;
    }
  return TRUE;
}

/* The ranks of the array KEY, as indexes into OUT. */
static gboolean
read_rank_list (ChronoJsonReader *r,
                ChronoJobTable   *self,
                const char       *key,
                GArray          **out)
{
  JsonArray *a = chrono_json_reader_array (r, r->root, key);

  if (a == NULL)
    return FALSE;
  *out = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = chrono_json_reader_element (r, a, key, i);
      guint index;

      if (o == NULL || !read_rank_ref (r, self, o, "rank", &index))
        return FALSE;
      g_array_append_val (*out, index);
    }
  return TRUE;
}

static gboolean
read_stragglers (ChronoJsonReader *r,
                 ChronoJobTable   *self)
{
  if (!read_rank_list (r, self, "stragglers", &self->stragglers) ||
      !read_rank_list (r, self, "straggler_ranking", &self->ranking))
    return FALSE;
  for (guint i = 0; i < self->stragglers->len; i++)
    self->ranks[g_array_index (self->stragglers, guint, i)].straggler = TRUE;
  return TRUE;
}

static gboolean
read_limitations (ChronoJsonReader *r,
                  ChronoJobTable   *self)
{
  JsonArray *a = chrono_json_reader_array (r, r->root, "limitations");

  if (a == NULL)
    return FALSE;
  self->limitations = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = chrono_json_reader_element (r, a, "limitations", i);
      char *message = NULL;

      if (o == NULL || !chrono_json_reader_string (r, o, "message", TRUE, &message))
        return FALSE;
      g_ptr_array_add (self->limitations, message);
    }
  return TRUE;
}

static gboolean
read_job (ChronoJsonReader *r,
          ChronoJobTable   *self)
{
  g_autofree char *schema = NULL;

  if (!chrono_json_reader_string (r, r->root, "schema", TRUE, &schema))
    return FALSE;
  if (strcmp (schema, CHRONO_JOB_SCHEMA) != 0)
    return chrono_json_reader_fail (r, "schema “%s”, expected “%s”", schema, CHRONO_JOB_SCHEMA);
  return chrono_json_reader_int (r, r->root, "straggler_min_skew_ns", TRUE, &self->min_skew_ns) &&
         read_ranks (r, self) &&
         read_steps (r, self) &&
         read_collectives (r, self) &&
         read_stragglers (r, self) &&
         read_limitations (r, self);
}

ChronoJobTable *
chrono_job_table_new_from_data (const char  *data,
                                gssize       length,
                                const char  *name,
                                GError     **error)
{
  g_autoptr(ChronoJobTable) self = g_new0 (ChronoJobTable, 1);
  g_auto(ChronoJsonReader) r = { NULL };

  self->name = g_strdup (name);
  self->dir = g_path_get_dirname (name);
  if (!chrono_json_reader_init (&r, data, length, name, error))
    return NULL;
  if (!read_job (&r, self))
    {
      chrono_json_reader_propagate (&r, error);
      return NULL;
    }
  return g_steal_pointer (&self);
}

ChronoJobTable *
chrono_job_table_load (const char  *path,
                       GError     **error)
{
  g_autofree char *data = NULL;
  gsize length;

  if (!g_file_get_contents (path, &data, &length, error))
    return NULL;
  return chrono_job_table_new_from_data (data, length, path, error);
}

static gint
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The folder's files, as `analyze` lists them: hidden files and
 * temporaries left out, in name order. */
static GPtrArray *
list_folder (const char  *dir,
             GError     **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, error);
  g_autoptr(GPtrArray) paths = NULL;
  const char *name;

  if (d == NULL)
    return NULL;
  paths = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = NULL;

      if (name[0] == '.' || g_str_has_suffix (name, ".tmp"))
        continue;
      path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (paths, g_steal_pointer (&path));
    }
  g_ptr_array_sort (paths, compare_paths);
  return g_steal_pointer (&paths);
}

char *
chrono_job_reduce_folder (const char                     *dir,
                          const ChronoAnalysisThresholds *thresholds,
                          GCancellable                   *cancellable,
                          ChronoProgressFunc              progress,
                          gpointer                        user_data,
                          GError                        **error)
{
  g_autoptr(GPtrArray) paths = list_folder (dir, error);
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_rank_summary_free);
  ChronoAnalysisOptions options;

  if (paths == NULL)
    return NULL;
  chrono_analysis_options_init (&options);
  if (thresholds != NULL)
    options.thresholds = *thresholds;
  for (guint i = 0; i < paths->len; i++)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(ChronoTrace) trace = NULL;
      ChronoRankSummary *summary;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (progress != NULL)
        progress (i, paths->len, user_data);
      /* One rank at a time: its trace is freed before the next loads. */
      trace = chrono_trace_load_file (paths->pdata[i], cancellable, NULL, NULL, &local);
      if (trace == NULL && g_error_matches (local, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT))
        continue;
      if (trace == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      summary = chrono_rank_summary_new_from_trace (trace, &options, cancellable, error);
      if (summary == NULL)
        return NULL;
      g_ptr_array_add (summaries, summary);
    }
  if (progress != NULL)
    progress (paths->len, paths->len, user_data);
  if (summaries->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: the folder holds no traces", dir);
      return NULL;
    }
  return chrono_job_reduce_to_json ((ChronoRankSummary * const *) summaries->pdata, summaries->len,
                                    &options.thresholds, error);
}

ChronoJobTable *
chrono_job_table_new_for_folder (const char                     *dir,
                                 const ChronoAnalysisThresholds *thresholds,
                                 GCancellable                   *cancellable,
                                 ChronoProgressFunc              progress,
                                 gpointer                        user_data,
                                 GError                        **error)
{
  g_autofree char *json = chrono_job_reduce_folder (dir, thresholds, cancellable, progress, user_data, error);
  ChronoJobTable *table;

  if (json == NULL)
    return NULL;
  table = chrono_job_table_new_from_data (json, -1, dir, error);
  if (table != NULL)
    {
      /* Rank paths are the folder's own: found from it. */
      g_free (table->dir);
      table->dir = g_strdup (dir);
    }
  return table;
}

char *
chrono_job_table_find_trace (ChronoJobTable *self,
                             guint           rank)
{
  const char *path;
  g_autofree char *base = NULL;
  g_autofree char *beside = NULL;

  g_return_val_if_fail (rank < self->n_ranks, NULL);
  path = self->ranks[rank].path;
  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return g_strdup (path);
  if (g_path_is_absolute (path))
    {
      /* A job moved with its ranks: the file of that name beside it. */
      base = g_path_get_basename (path);
      beside = g_build_filename (self->dir, base, NULL);
    }
  else
    beside = g_build_filename (self->dir, path, NULL);
  return g_file_test (beside, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&beside) : NULL;
}

/* Up to SNIFF_BYTES of PATH, gzip undone. */
static char *
read_head (const char *path,
           gsize      *length)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr(GInputStream) stream = NULL;
  g_autofree char *buffer = g_malloc (SNIFF_BYTES + 1);
  guint8 magic[2];
  gsize n = 0;

  if (raw == NULL)
    return NULL;
  if (g_input_stream_read_all (raw, magic, 2, &n, NULL, NULL) && n == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
    {
      g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);

      if (!g_seekable_seek (G_SEEKABLE (raw), 0, G_SEEK_SET, NULL, NULL))
        return NULL;
      stream = g_converter_input_stream_new (raw, G_CONVERTER (gunzip));
      n = 0;
    }
  else
    stream = g_object_ref (raw);
  memcpy (buffer, magic, n);
  if (!g_input_stream_read_all (stream, buffer + n, SNIFF_BYTES - n, length, NULL, NULL))
    return NULL;
  *length += n;
  buffer[*length] = '\0';
  return g_steal_pointer (&buffer);
}

static gboolean
head_matches (const char *path,
              const char *pattern)
{
  gsize length;
  g_autofree char *head = read_head (path, &length);

  return head != NULL && g_regex_match_simple (pattern, head, G_REGEX_RAW, 0);
}

ChronoJobSource
chrono_job_sniff (const char *path)
{
  g_autoptr(GPtrArray) files = NULL;
  guint ranks = 0, tried = 0;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return head_matches (path, "^\\s*\\{\\s*\"schema\"\\s*:\\s*\"chronoscope\\.job/")
           ? CHRONO_JOB_SOURCE_FILE : CHRONO_JOB_SOURCE_NONE;
  if ((files = list_folder (path, NULL)) == NULL)
    return CHRONO_JOB_SOURCE_NONE;
  for (guint i = 0; i < files->len && tried < SNIFF_MAX_FILES && ranks < 2; i++)
    {
      const char *name = files->pdata[i];

      if (!g_str_has_suffix (name, ".json") && !g_str_has_suffix (name, ".json.gz"))
        continue;
      tried++;
      if (head_matches (name, "\"distributedInfo\"\\s*:\\s*\\{[^}]*\"rank\""))
        ranks++;
    }
  return ranks >= 2 ? CHRONO_JOB_SOURCE_RANKS : CHRONO_JOB_SOURCE_NONE;
}
