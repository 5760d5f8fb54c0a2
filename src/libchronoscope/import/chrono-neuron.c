/* chrono-neuron.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-neuron.h"

#define SNIFF_KEYS 64

static gboolean
key_in (const ChronoJsonString *key,
        const char * const     *names)
{
  for (guint i = 0; names[i]; i++)
    if (strlen (names[i]) == key->len && memcmp (names[i], key->start, key->len) == 0)
      return TRUE;
  return FALSE;
}

ChronoNeuronFormat
chrono_neuron_sniff (const guint8 *data,
                     gsize         len)
{
  /* Legacy keys, and the snake_case table names of newer exports. */
  static const char * const device_keys[] = {
    "instruction", "dma", "semaphore_update", "cc_op", "cc_instruction",
    "instruction_usage", "stack_frame_function_name", "cc_stream", NULL
  };
  static const char * const system_keys[] = {
    "trace_event", "trace_events", "mem_usage", "cpu_util", "device_mem_usage", NULL
  };
  ChronoJsonScanner s = { data, data + len, NULL, NULL };
  gboolean done = FALSE;
  gboolean summary = FALSE;

  chrono_json_skip_ws (&s);
  if (s.p >= s.end || *s.p != '{')
    return CHRONO_NEURON_NONE;
  s.p++;
  for (guint i = 0; i < SNIFF_KEYS; i++)
    {
      ChronoJsonString key;

      if (chrono_json_next_member (&s, i == 0, &key, &done) != CHRONO_JSON_OK || done)
        break;
      if (key_in (&key, device_keys))
        return CHRONO_NEURON_DEVICE;
      if (key_in (&key, system_keys))
        return CHRONO_NEURON_SYSTEM;
      /* "summary" is an array in the device profile; summary-json is a
       * different thing. */
      if (key.len == 7 && memcmp (key.start, "summary", 7) == 0)
        {
          chrono_json_skip_ws (&s);
          summary = s.p < s.end && *s.p == '[';
        }
      if (chrono_json_skip_value (&s) != CHRONO_JSON_OK)
        break;
    }
  return summary ? CHRONO_NEURON_DEVICE : CHRONO_NEURON_NONE;
}

static ChronoJsonStatus
read_text (ChronoJsonScanner  *s,
           const guint8      **text,
           gsize              *len,
           gboolean           *ok)
{
  ChronoJsonStatus st;

  *ok = FALSE;
  if (*s->p == '"')
    {
      ChronoJsonString str;

      if ((st = chrono_json_read_string (s, &str)) != CHRONO_JSON_OK)
        return st;
      *text = str.start;
      *len = str.len;
      *ok = !str.escaped;
      return CHRONO_JSON_OK;
    }
  if (*s->p == '-' || (*s->p >= '0' && *s->p <= '9'))
    {
      if ((st = chrono_json_read_number (s, text, len)) != CHRONO_JSON_OK)
        return st;
      *ok = TRUE;
      return CHRONO_JSON_OK;
    }
  return chrono_json_skip_value (s);
}

ChronoJsonStatus
chrono_neuron_read_int (ChronoJsonScanner *s,
                        guint64           *value,
                        gboolean          *ok)
{
  const guint8 *text = NULL;
  gsize len = 0;
  ChronoJsonStatus st = read_text (s, &text, &len, ok);
  gint64 v;

  if (st != CHRONO_JSON_OK || !*ok)
    return st;
  if (len > 0 && text[0] == '-')
    {
      *ok = chrono_json_parse_int64 (text, len, &v);
      *value = (guint64) v;
    }
  else
    *ok = chrono_json_parse_uint64 (text, len, value);
  if (!*ok)
    {
      /* 2397972.0: an integer written as a float. */
      gdouble d;

      *ok = chrono_json_parse_double (text, len, &d) && d > -9.2e18 && d < 9.2e18;
      if (*ok)
        *value = (guint64) (gint64) d;
    }
  return CHRONO_JSON_OK;
}

ChronoJsonStatus
chrono_neuron_read_double (ChronoJsonScanner *s,
                           gdouble           *value,
                           gboolean          *ok)
{
  const guint8 *text = NULL;
  gsize len = 0;
  ChronoJsonStatus st = read_text (s, &text, &len, ok);

  if (st != CHRONO_JSON_OK || !*ok)
    return st;
  *ok = chrono_json_parse_double (text, len, value);
  return CHRONO_JSON_OK;
}
