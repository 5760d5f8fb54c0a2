/* chrono-format.c: numbers and durations as people read them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "chrono-format.h"

/* Namespaces that most of PyTorch's kernels carry and that tell none
 * apart. */
static const char * const noise_namespaces[] = {
  "(anonymous namespace)::", "at::native::", "at::detail::", "at::", "c10::", "std::",
  "at_cuda_detail::", "torch::headeronly::detail::", "torch::headeronly::",
};

/* Templates that only hold the kernel they are given: CUTLASS's and
 * FlashAttention's launch wrappers. */
static gboolean
is_wrapper (const char *name,
            gsize       len)
{
  static const char * const wrappers[] = { "device_kernel", "Kernel", "Kernel2" };

  for (guint i = 0; i < G_N_ELEMENTS (wrappers); i++)
    if (len == strlen (wrappers[i]) && strncmp (name, wrappers[i], len) == 0)
      return TRUE;
  return len > 9 && strncmp (name, "enable_sm", 9) == 0;
}

static gboolean
is_ident (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* 1 for a bracket that opens at P in S, -1 for one that closes, 0 for
 * anything else: "(8)>(0)" compares. */
static int
bracket (const char *s,
         const char *p)
{
  if ((*p == '<' || *p == '>') && p - s >= 2 && p[-1] == ')' && g_ascii_isdigit (p[-2]) &&
      p[1] == '(' && g_ascii_isdigit (p[2]))
    return 0;
  return *p == '<' || *p == '(' || *p == '{' || *p == '[' ? 1
       : *p == '>' || *p == ')' || *p == '}' || *p == ']' ? -1 : 0;
}

/* Where the group that opens at START closes, counting every kind of
 * bracket, or -1. */
static gssize
group_end (const char *s,
           gssize      start)
{
  int depth = 0;

  for (gssize i = start; s[i]; i++)
    if ((depth += bracket (s, s + i)) == 0)
      return i;
  return -1;
}

static gboolean
is_balanced (const char *s)
{
  int depth = 0;

  for (const char *p = s; *p && depth >= 0; p++)
    depth += bracket (s, p);
  return depth == 0;
}

static guint
width (const char *s)
{
  return g_utf8_strlen (s, -1);
}

/* Where the parameter list that ends a C++ signature opens
 * ("kernel<4>(int, float*)"), or -1: "iteration(44)" and
 * "Memcpy HtoD (Pageable -> Device)" are names as they are. */
static gssize
parameters_start (const char *s,
                  gssize      len)
{
  int depth = 0;
  gssize open;

  if (len < 3 || s[len - 1] != ')')
    return -1;
  for (open = len - 1; open > 0; open--)
    if ((depth += bracket (s, s + open)) == 0)
      break;
  if (open <= 0 || s[open] != '(' || !(is_ident (s[open - 1]) || s[open - 1] == '>'))
    return -1;
  if (s[open + 1] == ')')
    return strstr (s, "::") != NULL || strchr (s, '<') != NULL ? open : -1;
  return g_ascii_isalpha (s[open + 1]) || s[open + 1] == '_' ? open : -1;
}

/* The name without what tells no kernel apart: the return type, the
 * parameters (of the kernel, and of the functions its lambdas are in),
 * PyTorch's namespaces and CUTLASS's wrappers; "> >" closes as ">>". */
static char *
simplify (const char *name)
{
  gssize len = strlen (name), start = 0;
  gssize params = g_str_has_suffix (name, ") const") ? parameters_start (name, len - strlen (" const"))
                                                     : parameters_start (name, len);
  GString *out;
  int depth = 0;

  /* A signature's return type ends at its last space outside brackets:
   * "void", "std::enable_if<!(false), void>::type". */
  for (gssize i = 0; i < params; i++)
    {
      depth += bracket (name, name + i);
      if (name[i] == ' ' && depth == 0)
        start = i + 1;
    }
  if (params < 0)
    params = len;

  out = g_string_sized_new (params - start);
  for (gssize i = start; i < params; i++)
    {
      gboolean boundary = out->len == 0 || !(is_ident (out->str[out->len - 1]) || out->str[out->len - 1] == ':');
      gboolean skipped = FALSE;
      gssize end;

      for (guint k = 0; k < G_N_ELEMENTS (noise_namespaces) && !skipped; k++)
        if ((boundary || k == 0) && strncmp (name + i, noise_namespaces[k], strlen (noise_namespaces[k])) == 0)
          {
            i += strlen (noise_namespaces[k]) - 1;
            skipped = TRUE;
          }
      if (skipped)
        continue;
      if (name[i] == '(' && out->len > 0 && (is_ident (out->str[out->len - 1]) || out->str[out->len - 1] == '>') &&
          (end = group_end (name, i)) > 0)
        {
          /* A function's parameters, and its qualifier. */
          i = g_str_has_prefix (name + end + 1, " const") ? end + (gssize) strlen (" const") : end;
          continue;
        }
      if (g_str_has_prefix (name + i, "{lambda") && (end = group_end (name, i)) > 0)
        {
          g_string_append (out, "{lambda}");
          i = end;
          continue;
        }
      if (name[i] == ' ' && out->len > 0 && out->str[out->len - 1] == '>' && name[i + 1] == '>')
        continue;
      g_string_append_c (out, name[i]);
    }

  /* A lambda in a lambda in a function: the function's lambda. */
  for (char *p; (p = strstr (out->str, "::{lambda}::operator::{lambda}")) != NULL;)
    g_string_erase (out, p - out->str + strlen ("::{lambda}"), strlen ("::operator::{lambda}"));

  /* "cutlass::device_kernel<flash::FlashAttnBwd<…>>": the kernel it holds. */
  for (;;)
    {
      const char *open = strchr (out->str, '<');
      const char *last;
      gssize end;
      int inner = 0;
      gboolean single = TRUE;

      if (open == NULL || (end = group_end (out->str, open - out->str)) != (gssize) out->len - 1)
        break;
      for (const char *p = open + 1; p < out->str + end; p++)
        single = single && !(*p == ',' && inner == 0) && (inner += bracket (out->str, p)) >= 0;
      last = g_strrstr_len (out->str, open - out->str, "::");
      last = last != NULL ? last + 2 : out->str;
      if (!single || !is_wrapper (last, open - last))
        break;
      g_string_truncate (out, end);
      g_string_erase (out, 0, open + 1 - out->str);
    }
  return g_string_free (out, FALSE);
}

/* NAME without the namespaces inside its template, and without the
 * "::{lambda}" of the functions its lambdas are in. */
static char *
bare (const char *name)
{
  GString *out = g_string_new (NULL);
  int depth = 0;

  for (const char *p = name; *p; p++)
    {
      depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
      if (depth > 0 && is_ident (*p) && (p == name || !is_ident (p[-1])))
        {
          const char *q = p;

          while (is_ident (*q))
            q++;
          if (q[0] == ':' && q[1] == ':' && is_ident (q[2]))
            {
              p = q + 1;
              continue;
            }
        }
      if (g_str_has_prefix (p, "::{lambda}"))
        {
          p += strlen ("::{lambda}") - 1;
          continue;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

/* Collapses to "<…>" the widest of the deepest groups inside NAME's
 * template; FALSE when none is left to collapse. */
static gboolean
collapse_one (GString *name)
{
  gssize best = -1, best_end = 0;
  int depth = 0, best_depth = 1;

  for (gssize i = 0; i < (gssize) name->len; i++)
    {
      gssize end;

      if (name->str[i] == '>')
        depth--;
      if (name->str[i] != '<')
        continue;
      depth++;
      if (g_str_has_prefix (name->str + i, "<…>") || (end = group_end (name->str, i)) < 0)
        continue;
      if (depth >= 2 && (depth > best_depth || (depth == best_depth && end - i > best_end - best)))
        {
          best = i;
          best_end = end;
          best_depth = depth;
        }
    }
  if (best < 0)
    return FALSE;
  g_string_erase (name, best + 1, best_end - best - 1);
  g_string_insert (name, best + 1, "…");
  return TRUE;
}

/* NAME, whose groups are collapsed, with as many of its template's
 * first arguments as fit in BUDGET, else its template as "<…>"; NULL
 * when even that is too wide. */
static char *
first_arguments (const char *name,
                 guint       budget)
{
  const char *open = strchr (name, '<');
  gssize end;
  g_autoptr(GPtrArray) commas = g_ptr_array_new ();
  int depth = 0;

  if (open == NULL || (end = group_end (open, 0)) < 0)
    return NULL;
  for (const char *p = open + 1; p < open + end; p++)
    if ((depth += bracket (name, p)) == 0 && *p == ',')
      g_ptr_array_add (commas, (gpointer) p);
  for (guint k = commas->len; k > 0; k--)
    {
      const char *comma = commas->pdata[k - 1];
      g_autofree char *text = g_strdup_printf ("%.*s, …%s", (int) (comma - name), name, open + end);

      if (width (text) <= budget)
        return g_steal_pointer (&text);
    }
  {
    g_autofree char *text = g_strdup_printf ("%.*s<…>%s", (int) (open - name), name, open + end + 1);

    return width (text) <= budget ? g_steal_pointer (&text) : NULL;
  }
}

/* NAME in BUDGET characters: the start and the end of its name, which
 * tell kernels apart ("triton_…_view_12"), with "…" between, and its
 * template group, when it ends with one, kept. */
static char *
cut (const char *name,
     guint       budget)
{
  const char *group = name[0] != '\0' && g_str_has_suffix (name, ">") ? strchr (name, '<') : NULL;
  guint kept = group ? width (group) : 0;
  glong room = (glong) budget - kept - 1, head, tail;
  glong n = group ? g_utf8_pointer_to_offset (name, group) : (glong) width (name);
  const char *tail_start;

  if (room < 2)
    {
      group = NULL;
      room = (glong) MAX (budget, 2) - 1;
      n = width (name);
    }
  tail = room / 3;
  head = room - tail;
  tail_start = g_utf8_offset_to_pointer (name, n - tail);
  return g_strdup_printf ("%.*s…%.*s%s", (int) (g_utf8_offset_to_pointer (name, head) - name), name,
                          (int) (g_utf8_offset_to_pointer (name, n) - tail_start), tail_start,
                          group ? group : "");
}

char *
chrono_format_short_name (const char *name,
                          guint       budget)
{
  g_autofree char *simple = NULL;
  char *last;

  g_return_val_if_fail (name != NULL, NULL);

  /* Names that are not C++ (Triton's, NCCL's, Tensile's, C kernels) read
   * as they are, when they fit. */
  if (!is_balanced (name) || (strstr (name, "::") == NULL && strchr (name, '<') == NULL &&
                              parameters_start (name, strlen (name)) < 0))
    return width (name) <= budget ? g_strdup (name) : cut (name, budget);

  simple = simplify (name);
  if (width (simple) <= budget)
    return g_steal_pointer (&simple);

  /* From the inside out: namespaces inside the template, then the
   * deepest groups, widest first, then the last arguments. */
  {
    g_autofree char *without = bare (simple);
    g_autoptr(GString) text = g_string_new (without);
    char *first;

    while (width (text->str) > budget && collapse_one (text))
      ;
    if (width (text->str) <= budget)
      return g_string_free (g_steal_pointer (&text), FALSE);
    if ((first = first_arguments (text->str, budget)) != NULL)
      return first;
    g_free (simple);
    simple = g_string_free (g_steal_pointer (&text), FALSE);
  }

  /* Still too wide: the name without its namespaces. */
  if ((last = g_strrstr_len (simple, (strchr (simple, '<') ? strchr (simple, '<') : simple + strlen (simple)) - simple, "::")) != NULL)
    {
      g_autofree char *bare = g_strdup (last + 2);

      return chrono_format_short_name (bare, budget);
    }
  return cut (simple, budget);
}

char *
chrono_format_count (guint64 count)
{
  /* The ' flag groups digits the way the locale does. */
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

char *
chrono_format_duration (gint64 ns)
{
  if (ns >= G_GINT64_CONSTANT (1000000000))
    return g_strdup_printf (_("%.3f s"), ns / 1e9);
  if (ns >= 1000000)
    return g_strdup_printf (_("%.3f ms"), ns / 1e6);
  if (ns >= 1000)
    return g_strdup_printf (_("%.3f µs"), ns / 1e3);
  return g_strdup_printf (_("%d ns"), (int) ns);
}

char *
chrono_format_duration_change (gdouble ns)
{
  g_autofree char *magnitude = chrono_format_duration ((gint64) llround (fabs (ns)));

  /* Translators: a difference in time, "+1.20 ms" or "−0.30 ms" */
  return ns > 0 ? g_strdup_printf (_("+%s"), magnitude)
       : ns < 0 ? g_strdup_printf (_("−%s"), magnitude)
       : g_steal_pointer (&magnitude);
}

void
chrono_format_markdown_cell (GString    *s,
                             const char *text)
{
  g_string_append_c (s, ' ');
  for (const char *p = text; *p; p++)
    {
      if (*p == '|')
        g_string_append (s, "\\|");
      else if (*p != '\n')
        g_string_append_c (s, *p);
    }
  g_string_append (s, " |");
}

/* Decimal units scaled to the size, so a 14 kB profile does not read "0.0 MB". */
char *
chrono_format_bytes (guint64 bytes)
{
  return g_format_size (bytes);
}

/* "40MB", "1.5GB", "512KiB", "1000000": decimal units as g_format_size()
 * prints them, binary ones with an "i". */
gboolean
chrono_format_parse_size (const char  *text,
                          guint64     *bytes,
                          GError     **error)
{
  static const struct {
    const char *suffix;
    double      scale;
  } units[] = {
    { "", 1 }, { "B", 1 },
    { "K", 1e3 }, { "KB", 1e3 }, { "KiB", 1024.0 },
    { "M", 1e6 }, { "MB", 1e6 }, { "MiB", 1048576.0 },
    { "G", 1e9 }, { "GB", 1e9 }, { "GiB", 1073741824.0 },
  };
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  if (end != text && value > 0)
    {
      while (*end == ' ')
        end++;
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (g_ascii_strcasecmp (end, units[i].suffix) == 0)
          {
            *bytes = (guint64) (value * units[i].scale);
            return TRUE;
          }
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "Cannot read the size “%s”: use a number with an optional unit such as 40MB or 1GB", text);
  return FALSE;
}
