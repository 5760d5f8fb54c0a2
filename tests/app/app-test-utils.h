/* app-test-utils.h: helpers for the application's display tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "chrono-application.h"
#include "chrono-export-dialog.h"
#include "chrono-findings-panel.h"
#include "chrono-window.h"

G_BEGIN_DECLS

typedef gboolean (*AppTestCondition) (gpointer data);

/* Sets up the environment and GTK. Returns FALSE when there is no display:
 * the caller exits with 77, which meson counts as skipped. */
gboolean           app_test_init             (int               *argc,
                                              char            ***argv);
const char        *app_test_tmp_dir          (void);
/* PATH and all in it. */
void               app_test_remove_tree      (const char        *path);
ChronoApplication *app_test_get_application  (void);
ChronoWindow      *app_test_get_window       (void);
char              *app_test_write_trace      (const char        *name,
                                              guint64            target_bytes,
                                              guint              n_steps);
/* A generated job of WORLD_SIZE ranks under NAME (its traces in
 * NAME/ranks), with STRAGGLER (G_MAXUINT: none), summarised and reduced:
 * the path of its NAME/JOB.json. MANIFEST (optional) gets what was
 * planted. */
char              *app_test_write_job        (const char        *name,
                                              guint              world_size,
                                              guint              straggler,
                                              JsonNode         **manifest);

gboolean           app_test_spin_until       (AppTestCondition   condition,
                                              gpointer           data,
                                              guint              timeout_ms);
void               app_test_spin_for         (guint              ms);
gboolean           app_test_wait_for_state   (ChronoDocumentPage *page,
                                              ChronoDocumentState state,
                                              guint              timeout_ms);
gboolean           app_test_wait_for_paint   (GtkWidget         *widget,
                                              guint              timeout_ms);

GtkWidget         *app_test_find_widget      (GtkWidget         *root,
                                              GType              type);
GtkStack          *app_test_find_stack       (GtkWidget         *root,
                                              const char        *page_name);
GtkWidget         *app_test_find_label       (GtkWidget         *root,
                                              const char        *text);
/* A condition: whether an export dialog is shown, put in DIALOG (a
 * ChronoExportDialog **) when it is. */
gboolean           app_test_find_export_dialog (gpointer         dialog);
/* Every label's text under ROOT, hidden ones too, one a line. */
char              *app_test_get_text         (GtkWidget         *root);
GtkWidget         *app_test_find_button      (GtkWidget         *root,
                                              const char        *action_name);
/* The first controller of WIDGET of TYPE, or NULL. */
GtkEventController *app_test_find_controller (GtkWidget         *widget,
                                              GType              type);
void               app_test_close_all_tabs   (ChronoWindow      *window);
/* A window of WIDTH x HEIGHT px with CHILD in it, once CHILD has drawn. */
GtkWidget         *app_test_present          (GtkWidget         *child,
                                              int                width,
                                              int                height);
/* The widget's own drawing, without the frame clock's timing, drawn
 * with cairo into an image of its size. */
cairo_surface_t   *app_test_render           (GtkWidget         *widget);
/* For people to look at: WIDGET as drawn on screen, its CSS background
 * too, written to NAME in $CHRONO_SCREENSHOT_DIR when that is set (with
 * ADW_DEBUG_COLOR_SCHEME=prefer-dark for the dark style). */
void               app_test_screenshot       (GtkWidget         *widget,
                                              const char        *name);

/* The path of NAME in the shared traces, or NULL (print why) when the
 * folder or the file is missing: the caller skips. */
char              *app_test_real_trace       (const char        *name);
/* Opens PATH in the window and waits until it has loaded and drawn. */
ChronoDocumentPage *app_test_open_trace      (ChronoWindow      *window,
                                              const char        *path);
/* Pixels that differ between two renderings of one size, in a rectangle. */
guint              app_test_count_changed    (cairo_surface_t   *a,
                                              cairo_surface_t   *b,
                                              int                x0,
                                              int                y0,
                                              int                x1,
                                              int                y1);
/* Presses KEYVAL with MODIFIERS as GTK hands a key on: to the key bindings
 * of FOCUS, then of each widget holding it, until one takes it. */
gboolean           app_test_press_key        (GtkWidget         *focus,
                                              guint              keyval,
                                              GdkModifierType    modifiers);
GtkWidget         *app_test_find_css_class   (GtkWidget         *root,
                                              const char        *css_class);
/* Until the panel's analysis has finished. */
gboolean           app_test_wait_for_analysis (ChronoFindingsPanel *panel,
                                              guint              timeout_ms);
void               app_test_get_pixel        (cairo_surface_t   *surface,
                                              int                x,
                                              int                y,
                                              int               *r,
                                              int               *g,
                                              int               *b);

/* Whether the pixel at (X, Y) is within TOLERANCE of COLOR, summed over
 * red, green and blue (0 to 765); FALSE outside SURFACE. */
gboolean           app_test_near_color       (cairo_surface_t   *surface,
                                              int                x,
                                              int                y,
                                              const GdkRGBA     *color,
                                              int                tolerance);
/* Pixels near COLOR from (X0, Y0) to (X1, Y1), both included. */
guint              app_test_count_color      (cairo_surface_t   *surface,
                                              double             x0,
                                              double             y0,
                                              double             x1,
                                              double             y1,
                                              const GdkRGBA     *color,
                                              int                tolerance);

/* A main loop turn this long is a hiccup a person notices. */
#define APP_TEST_LONG_GAP_US (100 * 1000)
/* A virtual machine with two cores, both busy, sometimes leaves the
 * window's thread or the X server out for a scheduler slice: one hiccup
 * is allowed, a second one, or any gap this long, is a freeze. */
#define APP_TEST_MAX_GAP_US (250 * 1000)
#define APP_TEST_MAX_LONG_GAPS 1

/* Measures how long the main loop goes without running a 10 ms timer. */
typedef struct {
  guint  source_id;
  gint64 last_us;
  gint64 max_gap_us;
  guint  long_gaps;  /* of at least APP_TEST_LONG_GAP_US */
  guint  ticks;
} AppTestTicker;

void               app_test_ticker_start     (AppTestTicker     *ticker);
void               app_test_ticker_stop      (AppTestTicker     *ticker);
/* Fails on a freeze as APP_TEST_MAX_GAP_US and APP_TEST_MAX_LONG_GAPS
 * tell one from a hiccup. */
void               app_test_ticker_assert_responsive (const AppTestTicker *ticker);

G_END_DECLS
