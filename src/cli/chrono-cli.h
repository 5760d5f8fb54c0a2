/* chrono-cli.h: the commands of chronoscope-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int chrono_cli_info    (int argc, char **argv);
int chrono_cli_analyze (int argc, char **argv);
int chrono_cli_example (int argc, char **argv);
int chrono_cli_export  (int argc, char **argv);

G_END_DECLS
