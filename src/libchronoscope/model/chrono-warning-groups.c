/* chrono-warning-groups.c: the load's warnings, the same message of
 * several files told once
 *
 * A merged trace's warnings name their file first ("rank0.json: 264 flow
 * ends ..."); the parts of the trace say which names those are.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-warning-groups.h"

/* Stands for a run of digits in a message's key. */
#define NUMBER_MARK '\x01'

typedef struct {
  ChronoWarningGroup *group;
  guint               severity;  /* 0 most severe */
  guint               order;
} Ranked;

void
chrono_warning_group_free (ChronoWarningGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->text);
  g_ptr_array_unref (group->files);
  g_ptr_array_unref (group->messages);
  g_free (group);
}

/* MESSAGE with each run of digits as one mark. */
static char *
make_key (const char *message)
{
  GString *key = g_string_new (NULL);

  for (const char *p = message; *p != '\0'; p++)
    {
      if (g_ascii_isdigit (*p))
        {
          while (g_ascii_isdigit (p[1]))
            p++;
          g_string_append_c (key, NUMBER_MARK);
        }
      else
        g_string_append_c (key, *p);
    }
  return g_string_free (key, FALSE);
}

/* The digit run number SLOT of MESSAGE, as a number. */
static guint64
get_number (const char *message,
            guint       slot)
{
  for (const char *p = message; *p != '\0'; p++)
    if (g_ascii_isdigit (*p))
      {
        if (slot-- == 0)
          return g_ascii_strtoull (p, NULL, 10);
        while (g_ascii_isdigit (p[1]))
          p++;
      }
  g_return_val_if_reached (0);
}

/* The first message with each number that differs between the messages
 * as the range of its values. */
static char *
make_text (GPtrArray *messages)
{
  const char *first = g_ptr_array_index (messages, 0);
  GString *text = g_string_new (NULL);
  guint slot = 0;

  for (const char *p = first; *p != '\0'; p++)
    {
      const char *end = p;
      guint64 low = G_MAXUINT64, high = 0;

      if (!g_ascii_isdigit (*p))
        {
          g_string_append_c (text, *p);
          continue;
        }
      while (g_ascii_isdigit (end[1]))
        end++;
      for (guint i = 0; i < messages->len; i++)
        {
          guint64 n = get_number (g_ptr_array_index (messages, i), slot);

          low = MIN (low, n);
          high = MAX (high, n);
        }
      if (low == high)
        g_string_append_len (text, p, end - p + 1);
      else
        g_string_append_printf (text, "%" G_GUINT64_FORMAT "–%" G_GUINT64_FORMAT, low, high);
      p = end;
      slot++;
    }
  return g_string_free (text, FALSE);
}

/* The part whose file WARNING names first, and where its message starts
 * (WARNING itself when it names none); -1 when it names none. */
static gint
find_part (char * const *names,
           const char   *warning,
           const char  **message)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      gsize len = strlen (names[i]);

      if (strncmp (warning, names[i], len) == 0 && warning[len] == ':' && warning[len + 1] == ' ')
        {
          *message = warning + len + 2;
          return i;
        }
    }
  *message = warning;
  return -1;
}

static int
compare_ranked (gconstpointer a,
                gconstpointer b)
{
  const Ranked *x = a, *y = b;

  if (x->severity != y->severity)
    return x->severity < y->severity ? -1 : 1;
  return x->order < y->order ? -1 : (x->order > y->order);
}

GPtrArray *
chrono_warning_groups_new (ChronoTrace *trace)
{
  const ChronoLoadStats *stats;
  guint n_parts;
  gboolean merged;
  g_auto(GStrv) names = NULL;
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));
  GPtrArray *groups;

  g_return_val_if_fail (CHRONO_IS_TRACE (trace), NULL);

  stats = chrono_trace_get_stats (trace);
  n_parts = chrono_trace_get_n_parts (trace);
  merged = n_parts > 1;
  names = g_new0 (char *, n_parts + 1);
  for (guint i = 0; i < n_parts; i++)
    names[i] = g_path_get_basename (chrono_trace_get_part (trace, i)->path);

  for (guint i = 0; i < stats->warnings->len; i++)
    {
      const char *warning = g_ptr_array_index (stats->warnings, i);
      const char *message;
      gint part = find_part (names, warning, &message);
      g_autofree char *key = NULL;
      Ranked *entry;
      gpointer index;

      /* A trace of one file: its warnings are that file's, said without
       * its name. */
      if (!merged)
        part = -1;
      /* A message about the load as a whole is never grouped. */
      key = part >= 0 ? make_key (message) : g_strdup_printf ("%u", i);
      if (g_hash_table_lookup_extended (by_key, key, NULL, &index))
        entry = &g_array_index (ranked, Ranked, GPOINTER_TO_UINT (index));
      else
        {
          Ranked fresh = { g_new0 (ChronoWarningGroup, 1), part >= 0 ? 2 : merged ? 1 : 2, i };

          fresh.group->files = g_ptr_array_new_with_free_func (g_free);
          fresh.group->messages = g_ptr_array_new_with_free_func (g_free);
          fresh.group->cut_short = !merged && n_parts == 1 && chrono_trace_get_part (trace, 0)->truncated;
          fresh.group->quirk = TRUE;
          g_hash_table_insert (by_key, g_steal_pointer (&key), GUINT_TO_POINTER (ranked->len));
          g_array_append_val (ranked, fresh);
          entry = &g_array_index (ranked, Ranked, ranked->len - 1);
        }
      g_ptr_array_add (entry->group->messages, g_strdup (message));
      entry->group->quirk &= chrono_trace_warning_is_quirk (trace, i);
      if (part >= 0)
        {
          g_ptr_array_add (entry->group->files, g_strdup (names[part]));
          entry->group->cut_short |= chrono_trace_get_part (trace, part)->truncated;
        }
      if (entry->group->cut_short)
        entry->severity = 0;
    }

  for (guint i = 0; i < ranked->len; i++)
    if (g_array_index (ranked, Ranked, i).group->quirk)
      g_array_index (ranked, Ranked, i).severity = 3;
  g_array_sort (ranked, compare_ranked);
  groups = g_ptr_array_new_full (ranked->len, (GDestroyNotify) chrono_warning_group_free);
  for (guint i = 0; i < ranked->len; i++)
    {
      ChronoWarningGroup *group = g_array_index (ranked, Ranked, i).group;

      group->text = make_text (group->messages);
      g_ptr_array_add (groups, group);
    }
  return groups;
}

gboolean
chrono_warning_groups_must_know (GPtrArray *groups)
{
  for (guint i = 0; i < groups->len; i++)
    if (!((ChronoWarningGroup *) g_ptr_array_index (groups, i))->quirk)
      return TRUE;
  return FALSE;
}
