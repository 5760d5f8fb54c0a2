/* chrono-document-page-comparison.c: the document page's trace compared
 * with another, in a view of the page kept in the project file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-document-page-private.h"

static void
save_comparison (ChronoDocumentPage *self)
{
  g_autoptr(GError) error = NULL;

  if (!chrono_comparison_setup_save (self->comparison_view != NULL ? chrono_comparison_view_get_setup (self->comparison_view)
                                                                   : NULL,
                                     chrono_timeline_view_get_sidecar (self->timeline_view), &error))
    g_warning ("Could not save the comparison: %s", error->message);
}

static void
remove_comparison (ChronoDocumentPage *self)
{
  if (self->comparison_view == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->comparison_view, self);
  chrono_comparison_view_cancel (self->comparison_view);
  adw_view_stack_remove (self->view_stack, GTK_WIDGET (self->comparison_view));
  self->comparison_view = NULL;
}

static void
comparison_close_requested_cb (ChronoDocumentPage *self)
{
  remove_comparison (self);
  adw_view_stack_set_visible_child_name (self->view_stack, "timeline");
  save_comparison (self);
}

void
chrono_document_page_start_comparison (ChronoDocumentPage          *self,
                                       ChronoTrace                 *trace_b,
                                       const ChronoComparisonSetup *setup,
                                       gboolean                     show)
{
  AdwViewStackPage *page;

  remove_comparison (self);
  self->comparison_view = CHRONO_COMPARISON_VIEW (chrono_comparison_view_new (self->trace, trace_b, setup));
  page = adw_view_stack_add_titled (self->view_stack, GTK_WIDGET (self->comparison_view), "comparison",
                                    _("Comparison"));
  adw_view_stack_page_set_icon_name (page, "view-dual-symbolic");
  g_signal_connect_object (self->comparison_view, "close-requested", G_CALLBACK (comparison_close_requested_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->comparison_view, "notify::stretch", G_CALLBACK (save_comparison), self,
                           G_CONNECT_SWAPPED);
  /* Compared again by other windows, it is saved as it now is. */
  g_signal_connect_object (self->comparison_view, "notify::comparison", G_CALLBACK (save_comparison), self,
                           G_CONNECT_SWAPPED);
  if (show)
    adw_view_stack_set_visible_child_name (self->view_stack, "comparison");
  save_comparison (self);
}

/* What the project file kept: offered again beside the timeline, which
 * stays in front. */
void
chrono_document_page_restore_comparison (ChronoDocumentPage *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoComparisonSetup) setup = chrono_comparison_setup_load (chrono_timeline_view_get_sidecar (self->timeline_view),
                                                                         &error);

  if (error != NULL)
    g_warning ("Ignoring the saved comparison of %s: %s", chrono_trace_get_path (self->trace), error->message);
  else if (setup != NULL && !g_file_test (setup->path_b, G_FILE_TEST_EXISTS))
    g_warning ("Not restoring the comparison of %s: %s is gone", chrono_trace_get_path (self->trace), setup->path_b);
  else if (setup != NULL)
    chrono_document_page_start_comparison (self, NULL, setup, FALSE);
}

/**
 * chrono_document_page_compare_with:
 * @trace_b: (nullable): B, when it is open already
 * @setup: B's file and how to compare
 *
 * Compares this page's trace (A) with B in a view of the page, replacing
 * any comparison it had; B is @trace_b, or loaded from @setup's path. A
 * page still loading compares once it has loaded; one that failed does
 * nothing, showing why it failed.
 */
void
chrono_document_page_compare_with (ChronoDocumentPage          *self,
                                   ChronoTrace                 *trace_b,
                                   const ChronoComparisonSetup *setup)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));
  g_return_if_fail (trace_b == NULL || CHRONO_IS_TRACE (trace_b));
  g_return_if_fail (setup != NULL);

  if (self->state == CHRONO_DOCUMENT_STATE_LOADED)
    chrono_document_page_start_comparison (self, trace_b, setup, TRUE);
  else if (self->state == CHRONO_DOCUMENT_STATE_LOADING)
    {
      g_clear_pointer (&self->pending_setup, chrono_comparison_setup_free);
      self->pending_setup = chrono_comparison_setup_copy (setup);
      g_set_object (&self->pending_trace_b, trace_b);
    }
}

/**
 * chrono_document_page_get_comparison_view:
 *
 * Returns: (transfer none) (nullable): the comparison with another trace
 */
ChronoComparisonView *
chrono_document_page_get_comparison_view (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->comparison_view;
}

/**
 * chrono_document_page_get_compare_button:
 *
 * Returns: (transfer none): Compare With…, whose menu the window fills
 *   with its other traces
 */
GtkMenuButton *
chrono_document_page_get_compare_button (ChronoDocumentPage *self)
{
  g_return_val_if_fail (CHRONO_IS_DOCUMENT_PAGE (self), NULL);
  return self->compare_button;
}

/**
 * chrono_document_page_show_compare_menu:
 *
 * Opens Compare With…, once the trace has loaded.
 */
void
chrono_document_page_show_compare_menu (ChronoDocumentPage *self)
{
  g_return_if_fail (CHRONO_IS_DOCUMENT_PAGE (self));

  if (self->state == CHRONO_DOCUMENT_STATE_LOADED)
    gtk_menu_button_popup (self->compare_button);
}
