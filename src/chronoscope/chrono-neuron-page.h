/* chrono-neuron-page.h: what the NeuronCores of a device profile did,
 * first: HFU, MFU, MBU, arithmetic intensity, the engines and DMA beside
 * the profiler's own figures, the Tensor engine's time by cause and the
 * Neuron findings, for the whole profile or one execution
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "chrono-findings-panel.h"

G_BEGIN_DECLS

#define CHRONO_TYPE_NEURON_PAGE (chrono_neuron_page_get_type ())
G_DECLARE_FINAL_TYPE (ChronoNeuronPage, chrono_neuron_page, CHRONO, NEURON_PAGE, GtkWidget)

/* Whether TRACE holds a Neuron device profile, which this page is for. */
gboolean   chrono_neuron_page_is_for     (ChronoTrace         *trace);
/* Follows PANEL's analysis; shows findings and gaps on PANEL's timeline. */
GtkWidget *chrono_neuron_page_new        (ChronoFindingsPanel *panel);
/* The window the figures are of: 0 the whole profile, N execution N's
 * position in the list plus one. */
guint      chrono_neuron_page_get_window (ChronoNeuronPage    *self);
void       chrono_neuron_page_set_window (ChronoNeuronPage    *self,
                                          guint                window);

G_END_DECLS
