/* chrono-mcp-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <gio/gio.h>

#include "chrono-mcp-cache.h"

/* Scoped analyses kept per entry; paging through one report must not
 * recompute it, but every range an agent tries need not stay. */
#define MAX_ANALYSES 8

struct _ChronoMcpCache {
  GObject     parent_instance;
  gsize       limit;
  gsize       bytes;
  GPtrArray  *entries;     /* ChronoMcpEntry */
  GHashTable *unloaded;    /* handle -> the paths it had, joined */
  guint       next_handle;
  guint64     clock;
};

G_DEFINE_FINAL_TYPE (ChronoMcpCache, chrono_mcp_cache, G_TYPE_OBJECT)

static void
analysis_free (ChronoMcpAnalysis *a)
{
  g_clear_object (&a->analysis);
  g_clear_pointer (&a->report, json_node_unref);
  g_free (a);
}

static void
entry_free (ChronoMcpEntry *entry)
{
  g_free (entry->handle);
  g_ptr_array_unref (entry->traces);
  g_ptr_array_unref (entry->paths);
  g_hash_table_unref (entry->analyses);
  g_ptr_array_unref (entry->name_indexes);
  g_clear_object (&entry->query);
  g_free (entry);
}

static void
chrono_mcp_cache_finalize (GObject *object)
{
  ChronoMcpCache *self = CHRONO_MCP_CACHE (object);

  g_ptr_array_unref (self->entries);
  g_hash_table_unref (self->unloaded);
  G_OBJECT_CLASS (chrono_mcp_cache_parent_class)->finalize (object);
}

static void
chrono_mcp_cache_class_init (ChronoMcpCacheClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_mcp_cache_finalize;
}

static void
chrono_mcp_cache_init (ChronoMcpCache *self)
{
  self->entries = g_ptr_array_new_with_free_func ((GDestroyNotify) entry_free);
  self->unloaded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

ChronoMcpCache *
chrono_mcp_cache_new (gsize limit)
{
  ChronoMcpCache *self = g_object_new (CHRONO_MCP_TYPE_CACHE, NULL);

  self->limit = limit;
  return self;
}

gsize
chrono_mcp_cache_get_limit (ChronoMcpCache *self)
{
  return self->limit;
}

gsize
chrono_mcp_cache_get_bytes (ChronoMcpCache *self)
{
  return self->bytes;
}

static gboolean
same_paths (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (strcmp (g_ptr_array_index (a, i), g_ptr_array_index (b, i)) != 0)
      return FALSE;
  return TRUE;
}

ChronoMcpEntry *
chrono_mcp_cache_find (ChronoMcpCache *self,
                       GPtrArray      *paths)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      ChronoMcpEntry *entry = g_ptr_array_index (self->entries, i);

      if (same_paths (entry->paths, paths))
        {
          entry->last_use = ++self->clock;
          return entry;
        }
    }
  return NULL;
}

static char *
join_paths (GPtrArray *paths)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < paths->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *) g_ptr_array_index (paths, i));
  return g_string_free (s, FALSE);
}

ChronoMcpEntry *
chrono_mcp_cache_add (ChronoMcpCache  *self,
                      GPtrArray       *traces,
                      GPtrArray       *paths,
                      GPtrArray       *unloaded,
                      GError         **error)
{
  ChronoMcpEntry *entry;
  g_autoptr(GPtrArray) indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) chrono_mcp_name_index_free);
  gsize bytes = 0;

  /* the model, the source text it keeps for args (the whole file,
   * decompressed) and the spans by name, which searches by name read */
  for (guint i = 0; i < traces->len; i++)
    {
      ChronoMcpNameIndex *index = chrono_mcp_name_index_new (g_ptr_array_index (traces, i));

      g_ptr_array_add (indexes, index);
      bytes += chrono_trace_get_model_bytes (g_ptr_array_index (traces, i)) +
               chrono_trace_get_source_size (g_ptr_array_index (traces, i)) +
               chrono_mcp_name_index_bytes (index);
    }
  if (bytes > self->limit)
    {
      g_autofree char *need = g_format_size (bytes);
      g_autofree char *limit = g_format_size (self->limit);

      g_ptr_array_unref (traces);
      g_ptr_array_unref (paths);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "the trace needs %s in memory, over the server's limit of %s: "
                   "start the server with a larger --memory-limit", need, limit);
      return NULL;
    }

  while (self->bytes + bytes > self->limit && self->entries->len > 0)
    {
      guint oldest = 0;

      for (guint i = 1; i < self->entries->len; i++)
        if (((ChronoMcpEntry *) g_ptr_array_index (self->entries, i))->last_use <
            ((ChronoMcpEntry *) g_ptr_array_index (self->entries, oldest))->last_use)
          oldest = i;
      entry = g_ptr_array_index (self->entries, oldest);
      self->bytes -= entry->bytes;
      g_hash_table_insert (self->unloaded, g_strdup (entry->handle), join_paths (entry->paths));
      g_ptr_array_add (unloaded, g_strdup (entry->handle));
      g_ptr_array_remove_index (self->entries, oldest);
    }

  entry = g_new0 (ChronoMcpEntry, 1);
  entry->handle = g_strdup_printf ("h%u", ++self->next_handle);
  entry->traces = traces;
  entry->paths = paths;
  entry->bytes = bytes;
  entry->last_use = ++self->clock;
  entry->name_indexes = g_steal_pointer (&indexes);
  entry->analyses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) analysis_free);
  self->bytes += bytes;
  g_ptr_array_add (self->entries, entry);
  return entry;
}

ChronoMcpEntry *
chrono_mcp_cache_lookup (ChronoMcpCache  *self,
                         const char      *handle,
                         GError         **error)
{
  const char *was;

  for (guint i = 0; i < self->entries->len; i++)
    {
      ChronoMcpEntry *entry = g_ptr_array_index (self->entries, i);

      if (strcmp (entry->handle, handle) == 0)
        {
          entry->last_use = ++self->clock;
          return entry;
        }
    }
  was = g_hash_table_lookup (self->unloaded, handle);
  if (was != NULL)
    {
      g_autofree char *limit = g_format_size (self->limit);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "handle “%s” was unloaded to keep the loaded traces under %s (it was the least "
                   "recently used): call open_trace again with %s", handle, limit, was);
    }
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 "no trace has the handle “%s”: call open_trace first and use the handle it returns",
                 handle);
  return NULL;
}

ChronoMcpAnalysis *
chrono_mcp_entry_get_analysis (ChronoMcpEntry              *entry,
                               const char                  *key,
                               const guint                 *indices,
                               guint                        n_indices,
                               const ChronoAnalysisOptions *options,
                               GError                     **error)
{
  ChronoMcpAnalysis *a = g_hash_table_lookup (entry->analyses, key);
  g_autofree ChronoTrace **traces = NULL;
  g_autofree char *json = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  JsonNode *report;

  if (a != NULL)
    return a;

  traces = g_new (ChronoTrace *, n_indices);
  for (guint i = 0; i < n_indices; i++)
    traces[i] = g_ptr_array_index (entry->traces, indices[i]);
  analysis = chrono_analysis_run (traces, n_indices, options, NULL, error);
  if (analysis == NULL)
    return NULL;
  json = chrono_analysis_to_json (analysis);
  report = json_from_string (json, error);
  if (report == NULL)
    return NULL;

  if (g_hash_table_size (entry->analyses) >= MAX_ANALYSES)
    g_hash_table_remove_all (entry->analyses);
  a = g_new0 (ChronoMcpAnalysis, 1);
  a->analysis = g_steal_pointer (&analysis);
  a->report = report;
  g_hash_table_insert (entry->analyses, g_strdup (key), a);
  return a;
}

ChronoQuery *
chrono_mcp_entry_get_query (ChronoMcpEntry  *entry,
                            GError         **error)
{
  if (entry->query == NULL)
    entry->query = chrono_query_new ((ChronoTrace * const *) entry->traces->pdata, entry->traces->len, NULL, error);
  return entry->query;
}
