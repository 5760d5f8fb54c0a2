/* test-app-span-details.c: the pane beside the timeline that shows the
 * selected span, its args and the spans linked to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "app-test-utils.h"
#include "chrono-document-page.h"
#include "chrono-format.h"
#include "chrono-span-details.h"
#include "chrono-timeline.h"
#include "perfetto-writer.h"

static char *trace_path;

static gboolean
has_trace (gpointer data)
{
  return chrono_document_page_get_trace (data) != NULL;
}

/* On screen at its full width beside the timeline. */
static gboolean
is_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) >= 320;
}

/* The first runtime call that launched something. */
static gboolean
find_launch (ChronoTrace   *trace,
             ChronoSpanRef *launcher,
             ChronoSpanRef *launched)
{
  for (guint i = 0; i < chrono_trace_get_n_flows (trace); i++)
    {
      const ChronoFlow *flow = chrono_trace_get_flow (trace, i);
      const ChronoTrack *track = chrono_trace_get_track (trace, flow->from.track);

      if (flow->type == CHRONO_FLOW_LAUNCH &&
          g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (track, flow->from.index)),
                       "cudaLaunchKernel"))
        {
          *launcher = flow->from;
          *launched = flow->to;
          return TRUE;
        }
    }
  return FALSE;
}

static guint
count_css_class (GtkWidget  *root,
                 const char *css_class)
{
  guint n = gtk_widget_has_css_class (root, css_class) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    n += count_css_class (child, css_class);
  return n;
}

static void
test_select_and_follow (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);
  g_autofree char *duration = NULL;
  ChronoDocumentPage *page;
  ChronoTimeline *timeline;
  ChronoSpanDetails *details;
  ChronoViewport *viewport;
  ChronoTrace *trace;
  ChronoSpanRef launcher = { 0 }, launched = { 0 }, selected, shown;
  const ChronoTrack *track;
  GtkWidget *button;

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_spin_until (has_trace, page, 10000));
  trace = chrono_document_page_get_trace (page);
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  g_assert_nonnull (timeline);
  g_assert_nonnull (details);
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline), 5000));
  /* Hidden until something is selected. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (details)));

  g_assert_true (find_launch (trace, &launcher, &launched));
  chrono_timeline_select (timeline, &launcher);
  g_signal_emit_by_name (timeline, "span-activated", launcher.track, launcher.index);
  g_assert_true (app_test_spin_until (is_shown, details, 5000));
  g_assert_true (chrono_span_details_get_span (details, &shown));
  g_assert_cmpuint (shown.index, ==, launcher.index);

  track = chrono_trace_get_track (trace, launcher.track);
  duration = chrono_format_duration (chrono_track_get_dur (track, launcher.index));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "cudaLaunchKernel"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), duration));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "correlation"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "Launched kernel"));

  /* Its flow arrow and its launch lead to the same kernel: one link. */
  g_assert_cmpuint (count_css_class (GTK_WIDGET (details), "linked-event"), ==, 1);

  /* Following the link selects the kernel and brings it into view. */
  button = app_test_find_css_class (GTK_WIDGET (details), "linked-event");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpuint (selected.track, ==, launched.track);
  g_assert_cmpuint (selected.index, ==, launched.index);
  track = chrono_trace_get_track (trace, selected.track);
  g_assert_cmpint (track->type, ==, CHRONO_TRACK_STREAM);
  viewport = chrono_timeline_get_viewport (timeline);
  g_assert_cmpint (chrono_viewport_get_start_ns (viewport), <=, track->start[selected.index]);
  g_assert_cmpint (chrono_viewport_get_end_ns (viewport), >=,
                   chrono_track_get_end (track, selected.index));
  g_assert_cmpfloat (chrono_viewport_get_duration (viewport), <,
                     (double) (chrono_trace_get_end_ns (trace) - chrono_trace_get_start_ns (trace)));
  /* The pane follows, and links back. */
  g_assert_true (chrono_span_details_get_span (details, &shown));
  g_assert_cmpuint (shown.track, ==, launched.track);
  g_assert_cmpuint (shown.index, ==, launched.index);
  g_assert_true (app_test_spin_until (is_shown, GTK_WIDGET (details), 5000));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "Launched by"));

  /* Closing hides the pane and clears the selection. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (details), "details.close", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (details)));
  g_assert_false (chrono_timeline_get_selection (timeline, NULL));
  g_assert_false (chrono_span_details_get_span (details, NULL));
  app_test_close_all_tabs (window);
}

/* A Perfetto trace: a slice with debug annotations and a flow to a slice
 * on another track. */
static char *
write_perfetto_trace (void)
{
  g_autoptr(GByteArray) t = msg ();
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (app_test_tmp_dir (), "flows.pftrace", NULL);
  GByteArray *e, *a;

  add_track (t, 1, 0, "producer");
  add_track (t, 2, 0, "consumer");
  e = event (BEGIN, 1, "send batch");
  a = msg ();
  put_string (a, 10, "batch size");
  put_uint (a, 4, 32);
  put_message (e, E_ANNOTATION, a);
  put_fixed64 (e, E_FLOW, 7);
  add_event (t, 1, 1000, e);
  add_event (t, 1, 5000, event (END, 1, NULL));
  e = event (BEGIN, 2, "receive batch");
  put_fixed64 (e, E_TERMINATING_FLOW, 7);
  add_event (t, 1, 6000, e);
  add_event (t, 1, 9000, event (END, 2, NULL));
  g_file_set_contents (path, (const char *) t->data, t->len, &error);
  g_assert_no_error (error);
  return path;
}

/* The details of a Perfetto slice: its debug annotations as args, its
 * flow as a link to follow. */
static void
test_perfetto_slice (void)
{
  ChronoWindow *window = app_test_get_window ();
  g_autofree char *path = write_perfetto_trace ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  ChronoDocumentPage *page;
  ChronoTimeline *timeline;
  ChronoSpanDetails *details;
  ChronoTrace *trace;
  ChronoSpanRef send = { G_MAXUINT32, 0 }, selected;
  GtkWidget *button;

  page = chrono_window_open_file (window, file);
  g_assert_true (app_test_spin_until (has_trace, page, 10000));
  trace = chrono_document_page_get_trace (page);
  g_assert_cmpstr (chrono_trace_get_format (trace), ==, "perfetto");
  timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  g_assert_true (app_test_wait_for_paint (GTK_WIDGET (timeline), 5000));

  for (guint i = 0; i < chrono_trace_get_n_tracks (trace); i++)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, i);

      if (track->n_spans > 0 && g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (track, 0)), "send batch"))
        send = (ChronoSpanRef) { i, 0 };
    }
  g_assert_cmpuint (send.track, !=, G_MAXUINT32);
  chrono_timeline_select (timeline, &send);
  g_signal_emit_by_name (timeline, "span-activated", send.track, send.index);
  g_assert_true (app_test_spin_until (is_shown, details, 5000));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "send batch"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "batch size"));
  g_assert_nonnull (app_test_find_label (GTK_WIDGET (details), "32"));
  g_assert_cmpuint (count_css_class (GTK_WIDGET (details), "linked-event"), ==, 1);

  button = app_test_find_css_class (GTK_WIDGET (details), "linked-event");
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_cmpstr (chrono_trace_get_string (trace, chrono_track_get_name (chrono_trace_get_track (trace, selected.track), selected.index)),
                   ==, "receive batch");
  app_test_close_all_tabs (window);
}

#define KERNEL "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, " \
               "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)"

static ChronoDocumentPage *
open_kernel_trace (ChronoSpanDetails **details,
                   ChronoTimeline    **timeline)
{
  static const char json[] =
    "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" KERNEL "\",\"pid\":0,\"tid\":7,"
    "\"ts\":10,\"dur\":5,\"args\":{\"stream\":7,\"device\":0}},"
    "{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":20}]}";
  g_autofree char *path = g_build_filename (app_test_tmp_dir (), "kernel.json", NULL);
  ChronoWindow *window = app_test_get_window ();
  ChronoDocumentPage *page;
  ChronoSpanRef span = { 0, 0 };
  ChronoTrace *trace;

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  app_test_close_all_tabs (window);
  page = app_test_open_trace (window, path);
  trace = chrono_document_page_get_trace (page);
  *timeline = CHRONO_TIMELINE (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_TIMELINE));
  *details = CHRONO_SPAN_DETAILS (app_test_find_widget (GTK_WIDGET (page), CHRONO_TYPE_SPAN_DETAILS));
  for (span.track = 0; span.track < chrono_trace_get_n_tracks (trace); span.track++)
    if (chrono_trace_get_track (trace, span.track)->n_spans > 0 &&
        g_str_equal (chrono_trace_get_string (trace, chrono_track_get_name (chrono_trace_get_track (trace, span.track), 0)),
                     KERNEL))
      break;
  g_assert_cmpuint (span.track, <, chrono_trace_get_n_tracks (trace));
  chrono_timeline_select (*timeline, &span);
  g_signal_emit_by_name (*timeline, "span-activated", span.track, span.index);
  g_assert_true (app_test_spin_until (is_shown, *details, 5000));
  return page;
}

static char *
strip_zero_width (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "\xe2\x80\x8b", -1);

  return g_strjoinv (NULL, parts);
}

/* The label showing TEXT, with or without the spaces that let it wrap. */
static GtkWidget *
find_title (GtkWidget  *root,
            const char *text)
{
  if (GTK_IS_LABEL (root))
    {
      g_autofree char *plain = strip_zero_width (gtk_label_get_label (GTK_LABEL (root)));

      if (g_str_equal (plain, text))
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_title (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The title wraps a C++ name only at its seams (after "::", '<', ',',
 * '_' or '('), never inside a word, and without hyphens; a selection of it
 * copies the name as written. */
static void
test_title_breaks (void)
{
  ChronoSpanDetails *details;
  ChronoTimeline *timeline;
  GtkWidget *title;
  PangoLayout *layout;
  const char *text;
  GSList *lines;
  guint n_lines = 0;
  GdkContentProvider *content;
  GValue value = G_VALUE_INIT;

  open_kernel_trace (&details, &timeline);
  title = find_title (GTK_WIDGET (details), KERNEL);
  g_assert_nonnull (title);
  g_assert_true (gtk_label_get_selectable (GTK_LABEL (title)));
  app_test_spin_for (50);
  layout = gtk_label_get_layout (GTK_LABEL (title));
  text = pango_layout_get_text (layout);
  lines = pango_layout_get_lines_readonly (layout);
  for (GSList *l = lines; l != NULL; l = l->next)
    {
      PangoLayoutLine *line = l->data;
      const char *p = text + line->start_index;

      n_lines++;
      if (line->start_index == 0)
        continue;
      g_test_message ("line %u starts at “%.12s”", n_lines, p);
      /* Past the zero-width space, the last character of the line before. */
      if (g_str_has_prefix (p - 3, "\xe2\x80\x8b"))
        p -= 3;
      g_assert_true (p[-1] == '<' || p[-1] == ',' || p[-1] == '_' || p[-1] == '(' || p[-1] == ' ' ||
                     (p[-1] == ':' && p[-2] == ':'));
    }
  /* Long enough to wrap in the pane. */
  g_assert_cmpuint (n_lines, >, 2);

  gtk_label_select_region (GTK_LABEL (title), 0, -1);
  g_signal_emit_by_name (title, "copy-clipboard");
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (title));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_assert_cmpstr (g_value_get_string (&value), ==, KERNEL);
  g_value_unset (&value);
  app_test_close_all_tabs (app_test_get_window ());
}

/* Escape in the timeline closes the details, and the selection with them. */
static void
test_escape_closes (void)
{
  ChronoSpanDetails *details;
  ChronoTimeline *timeline;
  ChronoSpanRef selected;

  open_kernel_trace (&details, &timeline);
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (details)));
  g_assert_true (chrono_timeline_get_selection (timeline, &selected));
  g_assert_true (app_test_press_key (GTK_WIDGET (timeline), GDK_KEY_Escape, 0));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (details)));
  g_assert_false (chrono_timeline_get_selection (timeline, &selected));
  /* Nothing left to close: the key goes on. */
  g_assert_false (app_test_press_key (GTK_WIDGET (timeline), GDK_KEY_Escape, 0));
  app_test_close_all_tabs (app_test_get_window ());
}

int
main (int   argc,
      char *argv[])
{
  if (!app_test_init (&argc, &argv))
    return 77;

  trace_path = app_test_write_trace ("span-details.pt.trace.json", 0, 2);
  g_test_add_func ("/app/span-details/select-and-follow", test_select_and_follow);
  g_test_add_func ("/app/span-details/perfetto-slice", test_perfetto_slice);
  g_test_add_func ("/app/span-details/title-breaks", test_title_breaks);
  g_test_add_func ("/app/span-details/escape-closes", test_escape_closes);
  return g_test_run ();
}
