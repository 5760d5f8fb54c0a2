/* chrono-cli-mcp.c: chronoscope-cli mcp, a Model Context Protocol server on stdin and stdout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "chrono-cli.h"
#include "chrono-format.h"
#include "chrono-mcp-server.h"

/* Half the memory, so that an agent's traces leave room for the rest. */
static guint64
default_memory_limit (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  return pages > 0 && page_size > 0 ? (guint64) pages * page_size / 2 : G_GUINT64_CONSTANT (4) << 30;
}

int
chrono_cli_mcp (int    argc,
                char **argv)
{
  g_auto(GStrv) roots_given = NULL;
  g_autofree char *memory = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "root", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &roots_given, "A folder traces may be read from (repeatable; default: the current folder)", "DIR" },
    { "memory-limit", 0, 0, G_OPTION_ARG_STRING, &memory, "Keep at most SIZE of traces loaded (default: half the memory)", "SIZE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("— serve the analysis to agents over the Model Context Protocol");
  g_autoptr(GError) error = NULL;
  g_autoptr(ChronoMcpServer) server = NULL;
  ChronoMcpRoots *roots;
  const char *cwd[] = { ".", NULL };
  guint64 limit = default_memory_limit ();
  int protocol_fd;

  g_option_context_set_summary (context,
                                "Reads JSON-RPC messages, one per line, on standard input and answers on\n"
                                "standard output; logs go to standard error. Exits when the input closes.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("chronoscope-cli mcp: %s\n", error->message);
      return 2;
    }
  if (rest != NULL)
    {
      g_printerr ("chronoscope-cli mcp: unexpected argument “%s” (traces are opened with the open_trace tool)\n", rest[0]);
      return 2;
    }
  if (memory != NULL && !chrono_format_parse_size (memory, &limit, &error))
    {
      g_printerr ("chronoscope-cli mcp: --memory-limit: %s\n", error->message);
      return 2;
    }
  roots = chrono_mcp_roots_new (roots_given ? (const char * const *) roots_given : cwd, &error);
  if (roots == NULL)
    {
      g_printerr ("chronoscope-cli mcp: %s\n", error->message);
      return 2;
    }

  /* Standard output carries protocol messages only: anything else that
   * would be printed there goes to standard error. */
  fflush (stdout);
  protocol_fd = dup (STDOUT_FILENO);
  if (protocol_fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      g_printerr ("chronoscope-cli mcp: cannot set up standard output: %s\n", g_strerror (errno));
      chrono_mcp_roots_free (roots);
      return 1;
    }
  /* a client that goes away makes writes fail, not the process die */
  signal (SIGPIPE, SIG_IGN);

  server = chrono_mcp_server_new (roots, limit);
  return chrono_mcp_server_run (server, STDIN_FILENO, protocol_fd) ? 0 : 1;
}
