/* chrono-cli-export.c: chronoscope-cli export: the timeline as a
 * picture, drawn without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "chrono-analysis.h"
#include "chrono-annotation-layer.h"
#include "chrono-cli.h"
#include "chrono-format.h"
#include "chrono-loader.h"
#include "chrono-cli-picture.h"
#include "chrono-picture.h"
#include "chrono-step-bands.h"
#include "chrono-time-ticks.h"
#include "chrono-timeline-scene.h"
#include "chrono-trace-set.h"
#include "chrono-track-index.h"

#define DEFAULT_WIDTH 1600
#define MAX_SIZE 20000

typedef struct {
  char    *range;
  int      step;
  int      finding;
  char    *tracks;
  int      width;
  int      height;
  double   scale;
  char    *theme;
  char    *title;
  char    *notes;
  gboolean no_legend;
  gboolean flops;
  char    *output;
} Options;

static void
options_clear (Options *options)
{
  g_free (options->range);
  g_free (options->tracks);
  g_free (options->theme);
  g_free (options->title);
  g_free (options->notes);
  g_free (options->output);
}

/* The step named …#N, as the ruler's strip names them. */
static gboolean
find_step (ChronoTrace *trace,
           int          number,
           gint64      *start,
           gint64      *end,
           GString     *names)
{
  g_autoptr(ChronoStepBands) steps = chrono_step_bands_new (trace);
  g_autofree char *suffix = g_strdup_printf ("#%d", number);

  for (guint i = 0; i < chrono_step_bands_get_n_bands (steps); i++)
    {
      const ChronoStepBand *band = chrono_step_bands_get_band (steps, i);
      const char *name = chrono_trace_get_string (trace, band->name);

      if (g_str_has_suffix (name, suffix))
        {
          *start = band->start_ns;
          *end = band->end_ns;
          return TRUE;
        }
      if (i == 0 || i + 1 == chrono_step_bands_get_n_bands (steps))
        g_string_append_printf (names, "%s%s", names->len > 0 ? " to " : "", name);
    }
  return FALSE;
}

static ChronoTrace *
load (char **files)
{
  g_autoptr(GError) error = NULL;
  ChronoTrace *trace;

  if (files[1] == NULL && !g_file_test (files[0], G_FILE_TEST_IS_DIR))
    trace = chrono_trace_load_file (files[0], NULL, NULL, NULL, &error);
  else
    trace = chrono_trace_load_set ((const char * const *) files, NULL, NULL, NULL, &error);
  if (trace == NULL)
    g_printerr ("%s\n", error->message);
  else if (chrono_trace_get_stats (trace)->truncated)
    g_printerr ("chronoscope-cli export: the trace is incomplete; drawing what it holds\n");
  return trace;
}

/* Spans it names that the trace lacks are left out, and said so. */
static gboolean
add_notes (ChronoTimelineScene *scene,
           const char          *path)
{
  g_autoptr(ChronoAnnotations) annotations = chrono_annotations_new ();
  g_autoptr(ChronoAnnotationLayer) layer = NULL;
  g_autoptr(GError) error = NULL;
  guint missing = 0;

  if (!chrono_annotations_import (annotations, path, &error))
    {
      g_printerr ("chronoscope-cli export: %s\n", error->message);
      return FALSE;
    }
  layer = chrono_annotation_layer_new (scene, annotations);
  for (guint i = 0; i < chrono_annotations_get_n (annotations); i++)
    {
      const ChronoAnnotation *a = chrono_annotations_get (annotations, i);
      ChronoSpanRef span;

      if ((a->anchor == CHRONO_ANCHOR_SPAN && !chrono_annotation_layer_resolve (layer, &a->span, &span)) ||
          (a->kind == CHRONO_ANNOTATION_ARROW && !chrono_annotation_layer_resolve (layer, &a->to, &span)))
        missing++;
    }
  if (missing > 0)
    g_printerr ("chronoscope-cli export: %s: %u of its %u annotations point at spans this trace does not have: "
                "they are left out\n", path, missing, chrono_annotations_get_n (annotations));
  chrono_timeline_scene_set_annotations (scene, annotations);
  return TRUE;
}

static int
run (Options *o,
     char   **files)
{
  g_autoptr(ChronoTrace) trace = NULL;
  g_autoptr(ChronoTrackLayout) layout = NULL;
  g_autoptr(ChronoTimelineScene) scene = NULL;
  g_autoptr(ChronoAnalysis) analysis = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *finding_title = NULL;
  ChronoPictureOptions picture = { 0 };
  ChronoAnalysisOptions analysis_options;
  ChronoPictureFormat format;
  const ChronoFinding *finding = NULL;
  gint64 start, end;
  gboolean cut;

  if (!chrono_picture_format_for_path (o->output, &format))
    {
      g_printerr ("chronoscope-cli export: %s: the name must end in .png, .svg or .pdf\n", o->output);
      return 2;
    }

  trace = load (files);
  if (trace == NULL)
    return 1;
  start = chrono_trace_get_start_ns (trace);
  end = MAX (chrono_trace_get_end_ns (trace), start + CHRONO_VIEWPORT_MIN_DURATION_NS);
  layout = chrono_track_layout_new (trace);
  chrono_analysis_options_init (&analysis_options);
  analysis_options.with_flops_series = o->flops;

  if (o->range != NULL)
    {
      gint64 from, to;

      if (!chrono_cli_parse_range (o->range, &from, &to))
        {
          g_printerr ("chronoscope-cli export: --range wants START:END from the trace's start, with a unit "
                      "(ns, us, ms, s; ms when none), START below END, not “%s”\n", o->range);
          return 2;
        }
      start = chrono_trace_get_start_ns (trace) + from;
      end = chrono_trace_get_start_ns (trace) + to;
    }
  else if (o->step >= 0)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      if (!find_step (trace, o->step, &start, &end, names))
        {
          if (names->len > 0)
            g_printerr ("chronoscope-cli export: %s: no step #%d (its steps are %s)\n", files[0], o->step, names->str);
          else
            g_printerr ("chronoscope-cli export: %s: no step #%d: the trace has no ProfilerStep spans\n",
                        files[0], o->step);
          return 1;
        }
    }
  else if (o->finding > 0)
    {
      ChronoTrace *traces[] = { trace };

      analysis = chrono_analysis_run (traces, 1, &analysis_options, NULL, &error);
      if (analysis == NULL)
        {
          g_printerr ("chronoscope-cli export: %s\n", error->message);
          return 1;
        }
      if ((guint) o->finding > chrono_analysis_get_n_findings (analysis))
        {
          g_printerr ("chronoscope-cli export: %s: no finding %d: the analysis found %u\n", files[0], o->finding,
                      chrono_analysis_get_n_findings (analysis));
          return 1;
        }
      finding = chrono_analysis_get_finding (analysis, o->finding - 1);
      finding_title = g_strdup (finding->title);
    }

  /* A finding is framed on its evidence, its other rows folded away. */
  if (finding != NULL)
    scene = chrono_cli_finding_scene_new (analysis, finding, o->tracks, o->width, o->height,
                                          g_strcmp0 (o->theme, "dark") == 0, &cut);
  else if (o->tracks == NULL || chrono_cli_filter_tracks (trace, layout, o->tracks))
    scene = chrono_cli_scene_new (trace, layout, start, end, o->width, o->height,
                                  g_strcmp0 (o->theme, "dark") == 0, &cut);
  if (scene == NULL)
    {
      g_printerr ("chronoscope-cli export: %s: no track's or process's name matches “%s”\n", files[0], o->tracks);
      return 1;
    }
  if (o->flops)
    {
      ChronoTrace *traces[] = { trace };

      if (analysis == NULL && (analysis = chrono_analysis_run (traces, 1, &analysis_options, NULL, &error)) == NULL)
        {
          g_printerr ("chronoscope-cli export: %s\n", error->message);
          return 1;
        }
      chrono_timeline_scene_set_efficiency (scene, analysis);
      if (chrono_analysis_get_n_flops_series (analysis) == 0)
        g_printerr ("chronoscope-cli export: %s: no achieved TFLOP/s: %s\n", files[0],
                    chrono_timeline_scene_get_flops_note (scene));
      chrono_cli_scene_fit (scene, o->width, o->height, &cut);
    }
  if (o->notes != NULL && !add_notes (scene, o->notes))
    return 1;
  if (cut)
    g_printerr ("chronoscope-cli export: the tracks are taller than %d px: those below are left out "
                "(choose some with --tracks, or set --height)\n", CHRONO_CLI_MAX_AUTO_HEIGHT);

  subtitle = chrono_cli_subtitle (scene, files[0], g_strv_length (files) - 1);
  picture.title = o->title != NULL ? o->title : finding_title;
  picture.subtitle = subtitle;
  picture.legend = !o->no_legend;
  picture.scale = o->scale;
  if (!chrono_picture_write (scene, &picture, format, o->output, &error))
    {
      g_printerr ("chronoscope-cli export: %s\n", error->message);
      return 1;
    }
  return 0;
}

int
chrono_cli_export (int    argc,
                   char **argv)
{
  Options o = { .step = -1, .width = DEFAULT_WIDTH, .scale = 1 };
  g_auto(GStrv) files = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "The picture to write: .png, .svg or .pdf", "FILE" },
    { "range", 'r', 0, G_OPTION_ARG_STRING, &o.range,
      "Draw START to END from the trace's start (units ns, us, ms, s; ms when none)", "START:END" },
    { "step", 0, 0, G_OPTION_ARG_INT, &o.step, "Draw the training step named …#N", "N" },
    { "finding", 0, 0, G_OPTION_ARG_INT, &o.finding,
      "Draw the Nth finding of the analysis (from 1), its range and tracks shaded", "N" },
    { "tracks", 't', 0, G_OPTION_ARG_STRING, &o.tracks,
      "Only the tracks whose name or process's name matches a glob (comma-separated)", "PATTERN" },
    { "width", 'w', 0, G_OPTION_ARG_INT, &o.width, "Width in px (default 1600)", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &o.height,
      "Height of the timeline in px (default: all its tracks, up to 4000)", "PX" },
    { "scale", 's', 0, G_OPTION_ARG_DOUBLE, &o.scale, "PNG only: device pixels per px, 1 to 4 (default 1)", "X" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &o.theme, "light (default) or dark", "THEME" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o.title, "A title over the picture", "TEXT" },
    { "notes", 'n', 0, G_OPTION_ARG_FILENAME, &o.notes, "Draw the annotations of a notes file", "FILE" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &o.no_legend, "Leave out the legend of colours", NULL },
    { "flops", 0, 0, G_OPTION_ARG_NONE, &o.flops,
      "Under each device's tracks, its achieved TFLOP/s (runs the analysis)", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context =
    g_option_context_new ("TRACE… -o FILE — draw the timeline as a picture (several traces: on one clock)");
  g_autoptr(GError) error = NULL;
  int n_chosen, status;

  g_option_context_set_help_enabled (context, TRUE);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli export: %s\n", error->message);
      options_clear (&o);
      return 2;
    }
  n_chosen = (o.range != NULL) + (o.step >= 0) + (o.finding != 0);
  status = 2;
  if (files == NULL)
    g_printerr ("chronoscope-cli export: no trace file given\n");
  else if (o.output == NULL)
    g_printerr ("chronoscope-cli export: no picture to write: give -o FILE.png, .svg or .pdf\n");
  else if (n_chosen > 1)
    g_printerr ("chronoscope-cli export: --range, --step and --finding choose the same thing: give one\n");
  else if (o.finding < 0)
    g_printerr ("chronoscope-cli export: --finding counts from 1, not %d\n", o.finding);
  else if (o.width <= CHRONO_SCENE_HEADER_WIDTH || o.width > MAX_SIZE)
    g_printerr ("chronoscope-cli export: --width must be above %d and at most %d px, not %d\n",
                CHRONO_SCENE_HEADER_WIDTH, MAX_SIZE, o.width);
  else if (o.height < 0 || (o.height > 0 && o.height <= CHRONO_SCENE_RULER_HEIGHT) || o.height > MAX_SIZE)
    g_printerr ("chronoscope-cli export: --height must be above %d and at most %d px, not %d\n",
                CHRONO_SCENE_RULER_HEIGHT, MAX_SIZE, o.height);
  else if (!(o.scale >= 1 && o.scale <= CHRONO_PICTURE_MAX_SCALE))
    g_printerr ("chronoscope-cli export: --scale must be from 1 to %g, not %g\n", CHRONO_PICTURE_MAX_SCALE, o.scale);
  else if (o.theme != NULL && strcmp (o.theme, "light") != 0 && strcmp (o.theme, "dark") != 0)
    g_printerr ("chronoscope-cli export: --theme is light or dark, not “%s”\n", o.theme);
  else
    status = run (&o, files);
  options_clear (&o);
  return status;
}
