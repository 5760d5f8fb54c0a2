/* chrono-cli-report.c: chronoscope-cli report: the analysis as a
 * document to paste, with a picture of each top finding and a chart of
 * the device time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <pango/pangocairo.h>

#include "chrono-analysis.h"
#include "chrono-cli.h"
#include "chrono-cli-load.h"
#include "chrono-cli-picture.h"
#include "chrono-finding-scene.h"
#include "chrono-format.h"
#include "chrono-loader.h"
#include "chrono-palette.h"
#include "chrono-picture.h"
#include "chrono-text-layout.h"

#define WIDTH        1600
#define DEFAULT_TOP  3
#define CHART_BAR    22.0
#define CHART_LABEL  220.0
#define CHART_MARGIN 16.0

/* The parts of a device's window, as the analysis splits it. */
static const struct {
  const char *label;
  gsize       offset;
  guint32     color;
} parts[] = {
  { "compute", G_STRUCT_OFFSET (ChronoBreakdown, compute_ns), 0x4e9a06ff },
  { "communication", G_STRUCT_OFFSET (ChronoBreakdown, communication_ns), 0xc4a000ff },
  { "memcpy", G_STRUCT_OFFSET (ChronoBreakdown, memcpy_ns), 0x75507bff },
  { "memset", G_STRUCT_OFFSET (ChronoBreakdown, memset_ns), 0xad7fa8ff },
  { "idle: host wait", G_STRUCT_OFFSET (ChronoBreakdown, idle_host_wait_ns), 0xcc0000ff },
  { "idle: kernel wait", G_STRUCT_OFFSET (ChronoBreakdown, idle_kernel_wait_ns), 0xf57900ff },
  { "idle: other", G_STRUCT_OFFSET (ChronoBreakdown, idle_other_ns), 0xbabdb6ff },
};

static gint64
part_ns (const ChronoBreakdown *b,
         guint                  part)
{
  return G_STRUCT_MEMBER (gint64, b, parts[part].offset);
}

static void
set_color (cairo_t *cr,
           guint32  rgba)
{
  cairo_set_source_rgba (cr, (rgba >> 24) / 255.0, ((rgba >> 16) & 0xff) / 255.0, ((rgba >> 8) & 0xff) / 255.0,
                         (rgba & 0xff) / 255.0);
}

/* Returns how wide it is. */
static double
show_text (cairo_t    *cr,
           const char *text,
           double      x,
           double      y)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (CHRONO_SCENE_DEFAULT_FONT);
  int width;

  pango_layout_set_font_description (layout, font);
  chrono_text_layout_disable_ligatures (layout);
  pango_layout_set_text (layout, text, -1);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* One bar a device, its window split into parts, and a legend under
 * them. FALSE with ERROR when it cannot be written; *WRITTEN is FALSE
 * when the traces have no device. */
static gboolean
write_breakdown_chart (ChronoAnalysis *analysis,
                       const char     *path,
                       gboolean       *written,
                       GError        **error)
{
  g_autoptr(GPtrArray) devices = g_ptr_array_new ();
  cairo_surface_t *surface;
  cairo_status_t status;
  double height, y, x_legend;
  cairo_t *cr;

  for (guint i = 0; i < chrono_analysis_get_n_breakdowns (analysis); i++)
    {
      const ChronoBreakdown *b = chrono_analysis_get_breakdown (analysis, i);

      if (b->where.track == CHRONO_NO_TRACK && b->end_ns > b->start_ns)
        g_ptr_array_add (devices, (gpointer) b);
    }
  *written = devices->len > 0;
  if (devices->len == 0)
    return TRUE;

  height = 2 * CHART_MARGIN + devices->len * (CHART_BAR + 8) + 40;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH / 2, (int) height);
  cr = cairo_create (surface);
  set_color (cr, 0xffffffff);
  cairo_paint (cr);
  y = CHART_MARGIN;
  for (guint d = 0; d < devices->len; d++)
    {
      const ChronoBreakdown *b = g_ptr_array_index (devices, d);
      double window = b->end_ns - b->start_ns, x = CHART_LABEL;
      double bar = WIDTH / 2 - CHART_LABEL - CHART_MARGIN;
      g_autofree char *label = NULL;
      g_autofree char *length = chrono_format_duration (b->end_ns - b->start_ns);

      label = b->device >= 0 ? g_strdup_printf ("trace %u, device %d (%s)", b->where.trace, b->device, length)
                             : g_strdup_printf ("trace %u, a device (%s)", b->where.trace, length);
      set_color (cr, 0x000000ff);
      show_text (cr, label, CHART_MARGIN, y + 3);
      for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
        {
          double w = bar * part_ns (b, p) / window;

          set_color (cr, parts[p].color);
          cairo_rectangle (cr, x, y, w, CHART_BAR);
          cairo_fill (cr);
          x += w;
        }
      y += CHART_BAR + 8;
    }
  /* The legend. */
  x_legend = CHART_MARGIN;
  for (guint p = 0; p < G_N_ELEMENTS (parts); p++)
    {
      set_color (cr, parts[p].color);
      cairo_rectangle (cr, x_legend, y + 10, 12, 12);
      cairo_fill (cr);
      set_color (cr, 0x000000ff);
      x_legend += 16 + show_text (cr, parts[p].label, x_legend + 16, y + 7) + 18;
    }
  status = cairo_status (cr);
  cairo_destroy (cr);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* The finding framed on its evidence, which is outlined, its range and
 * tracks shaded under a note of the time it costs. */
static gboolean
write_finding_picture (ChronoAnalysis      *analysis,
                       const ChronoFinding *finding,
                       guint                number,
                       const char          *file,
                       const char          *path,
                       GError             **error)
{
  g_autoptr(ChronoTimelineScene) scene = chrono_finding_scene_new (analysis, finding, NULL, WIDTH, FALSE);
  g_autofree char *title = g_strdup_printf ("%u. %s", number, finding->title);
  g_autofree char *subtitle = NULL;
  ChronoPictureOptions options = { title, NULL, TRUE, 1 };

  chrono_cli_scene_fit (scene, WIDTH, 0, NULL);
  subtitle = chrono_cli_subtitle (scene, file, 0);
  options.subtitle = subtitle;
  return chrono_picture_write (scene, &options, CHRONO_PICTURE_PNG, path, error);
}

static void
append_finding (GString             *md,
                ChronoAnalysis      *analysis,
                const ChronoFinding *finding,
                guint                number,
                const char          *picture)
{
  guint32 t = finding->n_tracks > 0 ? finding->tracks[0].trace : finding->has_node ? finding->node.trace : 0;
  gint64 zero = chrono_trace_get_start_ns (chrono_analysis_get_trace (analysis, t));
  g_autofree char *lost = chrono_format_duration (finding->time_lost_ns);
  g_autofree char *from = chrono_format_duration (finding->start_ns - zero);
  g_autofree char *to = chrono_format_duration (finding->end_ns - zero);

  g_string_append_printf (md, "### %u. %s\n\n", number, finding->title);
  g_string_append_printf (md, "![%s](%s)\n\n", finding->title, picture);
  g_string_append_printf (md, "**%s** · %s lost · from %s to %s after the start of trace %u · rule `%s`\n\n",
                          chrono_severity_to_string (finding->severity), lost, from, to, t, finding->rule);
  if (finding->recommendation != NULL)
    g_string_append_printf (md, "%s\n\n", finding->recommendation);
}

/* -------------------------------------------------------------------- */
/* HTML: the same document, its pictures inside it                      */

static void
append_inline (GString    *html,
               const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  gboolean code = FALSE, bold = FALSE;

  for (const char *p = escaped; *p != '\0'; p++)
    {
      if (*p == '`')
        {
          g_string_append (html, code ? "</code>" : "<code>");
          code = !code;
        }
      else if (!code && p[0] == '*' && p[1] == '*')
        {
          g_string_append (html, bold ? "</strong>" : "<strong>");
          bold = !bold;
          p++;
        }
      else
        g_string_append_c (html, *p);
    }
  if (code)
    g_string_append (html, "</code>");
  if (bold)
    g_string_append (html, "</strong>");
}

/* The Markdown this command writes: headings, paragraphs, lists, tables
 * and pictures, which become data: URLs of the files in DIR. */
static gboolean
markdown_to_html (const char  *markdown,
                  const char  *dir,
                  GString     *html,
                  GError     **error)
{
  g_auto(GStrv) lines = g_strsplit (markdown, "\n", -1);
  gboolean in_list = FALSE, in_table = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (in_list && !g_str_has_prefix (line, "- "))
        g_string_append (html, "</ul>\n"), in_list = FALSE;
      if (in_table && line[0] != '|')
        g_string_append (html, "</table>\n"), in_table = FALSE;

      if (line[0] == '#')
        {
          guint level = strspn (line, "#");
          g_autofree char *heading = g_strstrip (g_strdup (line + level));

          g_string_append_printf (html, "<h%u>", MIN (level, 6));
          append_inline (html, heading);
          g_string_append_printf (html, "</h%u>\n", MIN (level, 6));
        }
      else if (g_str_has_prefix (line, "!["))
        {
          const char *open = strstr (line, "](");
          g_autofree char *file = open != NULL ? g_strndup (open + 2, strcspn (open + 2, ")")) : NULL;
          g_autofree char *path = file != NULL ? g_build_filename (dir, file, NULL) : NULL;
          g_autofree char *alt = open != NULL ? g_markup_escape_text (line + 2, open - line - 2) : NULL;
          g_autofree char *data = NULL, *base64 = NULL;
          gsize length;

          if (path == NULL || !g_file_get_contents (path, &data, &length, error))
            return FALSE;
          base64 = g_base64_encode ((const guchar *) data, length);
          g_string_append_printf (html, "<p><img alt=\"%s\" src=\"data:image/png;base64,%s\"></p>\n", alt, base64);
        }
      else if (g_str_has_prefix (line, "- "))
        {
          if (!in_list)
            g_string_append (html, "<ul>\n"), in_list = TRUE;
          g_string_append (html, "<li>");
          append_inline (html, line + 2);
          g_string_append (html, "</li>\n");
        }
      else if (line[0] == '|')
        {
          g_auto(GStrv) cells = g_strsplit (line + 1, "|", -1);
          gboolean head = !in_table;

          /* The row of dashes under the head. */
          if (strspn (line, "|-: ") == strlen (line))
            continue;
          if (!in_table)
            g_string_append (html, "<table>\n"), in_table = TRUE;
          g_string_append (html, "<tr>");
          for (guint c = 0; cells[c] != NULL && cells[c + 1] != NULL; c++)
            {
              g_string_append (html, head ? "<th>" : "<td>");
              append_inline (html, g_strstrip (cells[c]));
              g_string_append (html, head ? "</th>" : "</td>");
            }
          g_string_append (html, "</tr>\n");
        }
      else if (*line != '\0')
        {
          g_string_append (html, "<p>");
          append_inline (html, line);
          g_string_append (html, "</p>\n");
        }
    }
  if (in_list)
    g_string_append (html, "</ul>\n");
  if (in_table)
    g_string_append (html, "</table>\n");
  return TRUE;
}

int
chrono_cli_report (int    argc,
                   char **argv)
{
  g_autofree char *format = NULL;
  g_autofree char *dir = NULL;
  g_auto(GStrv) files = NULL;
  int top = DEFAULT_TOP;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &dir, "The folder to write the report and its pictures in", "DIR" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "markdown (default: report.md) or html (report.html, one file)", "FORMAT" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top, "Pictures of the N costliest findings (default 3)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new ("TRACE… -o DIR — the analysis as a document with pictures (several files: one per rank)");
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GString) md = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *analysis_md = NULL, *chart = NULL, *out = NULL, *name = NULL;
  ChronoAnalysisOptions options;
  gboolean html, has_chart;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli report: %s\n", error->message);
      return 2;
    }
  if (files == NULL || dir == NULL)
    {
      g_printerr ("chronoscope-cli report: give the traces and -o DIR\n");
      return 2;
    }
  if (format != NULL && strcmp (format, "markdown") != 0 && strcmp (format, "html") != 0)
    {
      g_printerr ("chronoscope-cli report: unknown format “%s” (markdown or html)\n", format);
      return 2;
    }
  if (top < 0)
    {
      g_printerr ("chronoscope-cli report: --top must be 0 or more, not %d\n", top);
      return 2;
    }
  html = format != NULL && strcmp (format, "html") == 0;

  for (guint i = 0; files[i] != NULL; i++)
    {
      ChronoTrace *trace = chrono_trace_load_file (files[i], NULL, NULL, NULL, &error);

      if (trace == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      if (chrono_trace_get_stats (trace)->truncated)
        g_printerr ("%s: the file is incomplete; reporting on what it holds\n", files[i]);
      g_ptr_array_add (traces, trace);
    }
  chrono_analysis_options_init (&options);
  chrono_cli_read_thresholds (&options.thresholds);
  analysis = chrono_analysis_run ((ChronoTrace * const *) traces->pdata, traces->len, &options, NULL, &error);
  if (analysis == NULL)
    {
      g_printerr ("chronoscope-cli report: %s\n", error->message);
      return 1;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_printerr ("chronoscope-cli report: %s: cannot make the folder: %s\n", dir, g_strerror (errno));
      return 1;
    }

  name = g_path_get_basename (files[0]);
  g_string_append_printf (md, "# Report: %s%s\n\n", name, traces->len > 1 ? " and the other ranks" : "");
  g_string_append_printf (md, "Top findings, costliest first, each drawn on its evidence (outlined in red, its "
                              "range and tracks shaded, the other processes collapsed), then the device time and "
                              "the whole analysis.\n\n");
  if (chrono_analysis_get_n_findings (analysis) == 0)
    g_string_append (md, "The analysis found nothing to report.\n\n");
  for (guint i = 0; i < MIN ((guint) top, chrono_analysis_get_n_findings (analysis)); i++)
    {
      g_autofree char *picture = g_strdup_printf ("finding-%u.png", i + 1);
      g_autofree char *path = g_build_filename (dir, picture, NULL);
      const ChronoFinding *finding = chrono_analysis_get_finding (analysis, i);
      guint32 t = finding->n_tracks > 0 ? finding->tracks[0].trace : finding->has_node ? finding->node.trace : 0;

      if (!write_finding_picture (analysis, finding, i + 1, files[t], path, &error))
        {
          g_printerr ("chronoscope-cli report: %s\n", error->message);
          return 1;
        }
      append_finding (md, analysis, finding, i + 1, picture);
    }

  chart = g_build_filename (dir, "device-time.png", NULL);
  if (!write_breakdown_chart (analysis, chart, &has_chart, &error))
    {
      g_printerr ("chronoscope-cli report: %s\n", error->message);
      return 1;
    }
  g_string_append (md, "## Device time\n\n");
  if (has_chart)
    g_string_append (md, "Each device's window, first to last activity, split as Holistic Trace Analysis "
                         "does.\n\n![Device time](device-time.png)\n\n");
  else
    g_string_append (md, "The traces have no device work.\n\n");

  analysis_md = chrono_analysis_to_markdown (analysis);
  g_string_append_printf (md, "---\n\n%s\n", analysis_md);

  if (html)
    {
      g_autoptr(GString) doc = g_string_new ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n");
      g_autofree char *escaped = g_markup_escape_text (name, -1);

      g_string_append_printf (doc, "<title>Report: %s</title>\n", escaped);
      g_string_append (doc, "<style>body{font-family:sans-serif;max-width:1640px;margin:auto;padding:1em}"
                            "img{max-width:100%}table{border-collapse:collapse}"
                            "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style>\n"
                            "</head><body>\n");
      if (!markdown_to_html (md->str, dir, doc, &error))
        {
          g_printerr ("chronoscope-cli report: %s\n", error->message);
          return 1;
        }
      g_string_append (doc, "</body></html>\n");
      out = g_build_filename (dir, "report.html", NULL);
      if (!g_file_set_contents_full (out, doc->str, doc->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error))
        {
          g_printerr ("chronoscope-cli report: %s\n", error->message);
          return 1;
        }
    }
  else
    {
      out = g_build_filename (dir, "report.md", NULL);
      if (!g_file_set_contents_full (out, md->str, md->len, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error))
        {
          g_printerr ("chronoscope-cli report: %s\n", error->message);
          return 1;
        }
    }
  printf ("%s\n", out);
  return 0;
}
