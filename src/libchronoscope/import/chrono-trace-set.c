/* chrono-trace-set.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "chrono-neuron-parquet-importer.h"
#include "chrono-parquet-reader.h"
#include "chrono-trace-private.h"
#include "chrono-trace-set.h"

#define MAX_DEPTH 4   /* <out>/<instance>_pid_<pid>/<timestamp>/files */

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Files under DIR, in name order, hidden ones and temporaries left out. */
static void
collect_files (const char *dir,
               guint       depth,
               GPtrArray  *files)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    if (name[0] != '.' && !g_str_has_suffix (name, ".tmp"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          if (depth < MAX_DEPTH)
            collect_files (path, depth + 1, files);
        }
      else if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_ptr_array_add (files, g_steal_pointer (&path));
    }
}

/* Whether the file at PATH starts as Parquet does. */
static gboolean
is_parquet (const char *path)
{
  guint8 head[4];
  FILE *f = g_fopen (path, "rb");
  gboolean yes;

  if (f == NULL)
    return FALSE;
  yes = fread (head, 1, 4, f) == 4 && chrono_parquet_sniff (head, 4);
  fclose (f);
  return yes;
}

/* A folder's Parquet files are the tables of one profile: they are taken
 * out of FILES and given to one load per folder, into TRACES. FALSE with
 * ERROR on cancellation. */
static gboolean
load_parquet_folders (GPtrArray          *files,
                      GPtrArray          *from_folder,
                      GPtrArray          *traces,
                      GPtrArray          *warnings,
                      GCancellable       *cancellable,
                      ChronoProgressFunc  progress,
                      gpointer            user_data,
                      GError            **error)
{
  g_autoptr(GHashTable) folders = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();

  for (guint i = 0; i < files->len;)
    {
      char *path = g_ptr_array_index (files, i);
      g_autofree char *dir = NULL;
      GPtrArray *tables;

      if (!g_ptr_array_find (from_folder, path, NULL) || !is_parquet (path))
        {
          i++;
          continue;
        }
      dir = g_path_get_dirname (path);
      if ((tables = g_hash_table_lookup (folders, dir)) == NULL)
        {
          tables = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (order, dir);
          g_hash_table_insert (folders, g_steal_pointer (&dir), tables);
        }
      g_ptr_array_remove (from_folder, path);
      g_ptr_array_add (tables, g_ptr_array_steal_index (files, i));
    }
  for (guint i = 0; i < order->len; i++)
    {
      const char *dir = g_ptr_array_index (order, i);
      GPtrArray *tables = g_hash_table_lookup (folders, dir);
      g_autoptr(GError) local = NULL;
      ChronoTrace *trace;

      g_ptr_array_add (tables, NULL);
      trace = chrono_neuron_parquet_load (dir, (const char * const *) tables->pdata, cancellable,
                                          progress, user_data, &local);
      if (trace != NULL)
        g_ptr_array_add (traces, trace);
      else if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      else
        g_ptr_array_add (warnings, g_strdup (local->message));
    }
  return TRUE;
}

/* splitmix64's finaliser: every bit of X moves every bit of the result. */
static inline guint64
mix (guint64 x)
{
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* A fingerprint of a Neuron profile's events, whatever the order its
 * format gives them in: the JSON of a profile and its Parquet tables have
 * the same. A device profile's processes (its cores) and spans count; a
 * system profile's JSON has spans and processes its tables lack, so there
 * only its counters' samples do. */
static guint64
neuron_fingerprint (ChronoTrace *trace,
                    gboolean     spans,
                    guint64     *n_events)
{
  guint64 sum = 0;

  *n_events = 0;
  /* The same work on two cores is two profiles: the cores' names count. */
  for (guint p = 0; spans && p < chrono_trace_get_n_processes (trace); p++)
    sum += mix (g_str_hash (chrono_trace_get_string (trace, chrono_trace_get_process (trace, p)->display_name)));
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, t);

      for (guint32 i = 0; spans && i < track->n_spans; i++)
        sum += mix (mix ((guint64) track->start[i]) ^ (guint64) chrono_track_get_dur (track, i) ^ (guint64) track->kind[i] << 56);
      /* Values as single floats: the tables keep some in 32 bits. */
      for (guint32 i = 0; i < track->n_samples; i++)
        {
          gfloat value = (gfloat) track->sample_value[i];
          guint32 bits;

          memcpy (&bits, &value, sizeof bits);
          sum += mix (mix ((guint64) track->sample_ts[i]) ^ bits);
        }
      *n_events += track->n_spans + track->n_samples;
    }
  return sum;
}

/* A folder that holds a Neuron profile twice, as JSON and as Parquet
 * tables, is read once: of two twins, the one with fewer events (the
 * tables, when they hold as many) is left out, said in WARNINGS. */
static void
drop_twins (GPtrArray *traces,
            GPtrArray *warnings)
{
  static const char * const formats[] = { "neuron-device", "neuron-system" };
  g_autofree gint *format = g_new (gint, traces->len);
  g_autofree guint64 *print = g_new0 (guint64, traces->len);
  g_autofree guint64 *n = g_new0 (guint64, traces->len);
  g_autofree gboolean *gone = g_new0 (gboolean, traces->len);

  for (guint i = 0; i < traces->len; i++)
    {
      format[i] = -1;
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        if (g_strcmp0 (chrono_trace_get_format (traces->pdata[i]), formats[f]) == 0)
          {
            format[i] = f;
            print[i] = neuron_fingerprint (traces->pdata[i], f == 0, &n[i]);
          }
    }
  for (guint i = 0; i < traces->len; i++)
    for (guint j = i + 1; j < traces->len && !gone[i]; j++)
      {
        guint drop, keep;

        if (gone[j] || format[i] < 0 || format[i] != format[j] || print[i] != print[j] || n[i] == 0)
          continue;
        drop = n[j] > n[i] || (n[j] == n[i] && !g_str_has_suffix (chrono_trace_get_path (traces->pdata[i]), ".json")) ? i : j;
        keep = drop == i ? j : i;
        gone[drop] = TRUE;
        g_ptr_array_add (warnings, g_strdup_printf ("%s and %s hold the same %s profile: it is read once, from %s",
                                                    chrono_trace_get_path (traces->pdata[i]),
                                                    chrono_trace_get_path (traces->pdata[j]),
                                                    format[i] == 0 ? "device" : "system",
                                                    chrono_trace_get_path (traces->pdata[keep])));
      }
  for (guint i = traces->len; i-- > 0;)
    if (gone[i])
      g_ptr_array_remove_index (traces, i);
}

/* The host-clock start of NeuronCore NC's first execution in SYSTEM. */
static gboolean
exec_start (ChronoTrace *system,
            gint64       nc,
            gint64      *start)
{
  gboolean found = FALSE;

  for (guint t = 0; t < chrono_trace_get_n_tracks (system); t++)
    {
      const ChronoTrack *track = chrono_trace_get_track (system, t);

      for (guint32 i = 0; i < track->n_spans; i++)
        {
          g_autoptr(GPtrArray) args = NULL;

          if (strcmp (chrono_trace_get_string (system, chrono_track_get_name (track, i)), "nc_exec_running") != 0 ||
              (found && track->start[i] >= *start))
            continue;
          args = chrono_trace_dup_args (system, chrono_track_get_args (track, i));
          for (guint a = 0; a < args->len; a++)
            {
              const ChronoArg *arg = g_ptr_array_index (args, a);

              if (strcmp (arg->key, "nc_idx") == 0 && g_ascii_strtoll (arg->text, NULL, 10) == nc)
                {
                  *start = track->start[i];
                  found = TRUE;
                }
            }
        }
    }
  return found;
}

/* Device profiles count from 0: put them on the host clock. */
static void
align_devices (GPtrArray *traces,
               gint64    *shifts,
               GPtrArray *warnings)
{
  gint64 host_start = G_MAXINT64;

  for (guint i = 0; i < traces->len; i++)
    {
      ChronoTrace *t = g_ptr_array_index (traces, i);

      if (strcmp (chrono_trace_get_format (t), "neuron-device") != 0 &&
          chrono_trace_get_n_tracks (t) > 0)
        host_start = MIN (host_start, chrono_trace_get_start_ns (t));
    }
  for (guint i = 0; i < traces->len; i++)
    {
      ChronoTrace *device = g_ptr_array_index (traces, i);
      gint64 nc;
      gboolean found = FALSE;

      if (strcmp (chrono_trace_get_format (device), "neuron-device") != 0 ||
          chrono_trace_get_n_processes (device) == 0)
        continue;
      nc = chrono_trace_get_process (device, 0)->pid.value;
      for (guint j = 0; j < traces->len && !found; j++)
        {
          ChronoTrace *system = g_ptr_array_index (traces, j);

          if (strcmp (chrono_trace_get_format (system), "neuron-system") == 0)
            found = exec_start (system, nc, &shifts[i]);
        }
      if (!found && host_start != G_MAXINT64)
        {
          shifts[i] = host_start;
          g_ptr_array_add (warnings,
                           g_strdup_printf ("%s: no nc_exec_running of NeuronCore %" G_GINT64_FORMAT
                                            " in a system profile: its time 0 is put at the start of the host trace",
                                            chrono_trace_get_path (device), nc));
        }
    }
}

ChronoTrace *
chrono_trace_load_set (const char * const *paths,
                       GCancellable       *cancellable,
                       ChronoProgressFunc  progress,
                       gpointer            user_data,
                       GError            **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) from_folder = g_ptr_array_new ();
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree gint64 *shifts = NULL;
  g_autofree char *name = NULL;
  ChronoTrace *merged;
  guint skipped = 0;

  for (guint i = 0; paths[i]; i++)
    {
      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          guint before = files->len;

          collect_files (paths[i], 1, files);
          for (guint j = before; j < files->len; j++)
            g_ptr_array_add (from_folder, g_ptr_array_index (files, j));
          if (files->len == before)
            {
              g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                           "%s: the folder holds no files", paths[i]);
              return NULL;
            }
        }
      else
        g_ptr_array_add (files, g_strdup (paths[i]));
    }
  if (files->len == 0)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_IO, "no trace file given");
      return NULL;
    }

  if (!load_parquet_folders (files, from_folder, traces, warnings, cancellable, progress, user_data, error))
    return NULL;
  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(GError) local = NULL;
      ChronoTrace *trace = chrono_trace_load_file (path, cancellable, progress, user_data, &local);

      if (trace != NULL)
        {
          if (traces->len <= CHRONO_MAX_SOURCES)
            g_ptr_array_add (traces, trace);
          else
            {
              g_object_unref (trace);
              g_ptr_array_add (warnings, g_strdup_printf ("%s: more than %d files; left out", path,
                                                          CHRONO_MAX_SOURCES + 1));
            }
          continue;
        }
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (local, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_CANCELLED) ||
          !g_ptr_array_find (from_folder, path, NULL))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      /* A folder also holds NEFFs, NTFFs, protobufs...: those are not ours. */
      if (g_error_matches (local, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT))
        skipped++;
      else
        g_ptr_array_add (warnings, g_strdup (local->message));
    }
  if (traces->len == 0)
    {
      g_set_error (error, CHRONO_LOAD_ERROR, CHRONO_LOAD_ERROR_FORMAT,
                   "%s: no trace that Chronoscope reads was found", paths[0]);
      return NULL;
    }

  drop_twins (traces, warnings);
  shifts = g_new0 (gint64, traces->len);
  align_devices (traces, shifts, warnings);
  name = paths[1] == NULL ? g_strdup (paths[0]) : g_strjoinv (" + ", (char **) paths);
  merged = chrono_trace_merge ((ChronoTrace * const *) traces->pdata, shifts, traces->len, name);
  for (guint i = 0; i < warnings->len; i++)
    chrono_trace_add_warning (merged, "%s", (const char *) g_ptr_array_index (warnings, i));
  if (skipped > 0)
    chrono_trace_add_warning (merged, g_dngettext (GETTEXT_PACKAGE, "%u file in the folder is not a trace and was skipped",
                                                   "%u files in the folder are not traces and were skipped", skipped),
                              skipped);
  return merged;
}
