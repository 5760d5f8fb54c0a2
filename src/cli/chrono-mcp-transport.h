/* chrono-mcp-transport.h: JSON-RPC messages over a pair of file descriptors, one per line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* JSON-RPC 2.0 error codes. */
enum {
  CHRONO_MCP_PARSE_ERROR      = -32700,
  CHRONO_MCP_INVALID_REQUEST  = -32600,
  CHRONO_MCP_METHOD_NOT_FOUND = -32601,
  CHRONO_MCP_INVALID_PARAMS   = -32602,
};

typedef enum {
  CHRONO_MCP_READ_LINE,      /* a whole line, without its newline */
  CHRONO_MCP_READ_TOO_LONG,  /* a line over the limit, skipped up to its newline */
  CHRONO_MCP_READ_EOF,       /* the input closed (a partial last line is dropped) */
  CHRONO_MCP_READ_ERROR,
} ChronoMcpReadStatus;

typedef struct _ChronoMcpReader ChronoMcpReader;

/* Reads lines of at most MAX_LINE bytes from FD. */
ChronoMcpReader     *chrono_mcp_reader_new  (int               fd,
                                             gsize             max_line);
void                 chrono_mcp_reader_free (ChronoMcpReader  *reader);
/* On CHRONO_MCP_READ_LINE, *LINE (NUL-terminated, *LENGTH bytes) stays
 * valid until the next call. *DROPPED tells how many bytes a partial last
 * line or an overlong line had. */
ChronoMcpReadStatus  chrono_mcp_reader_next (ChronoMcpReader  *reader,
                                             const char      **line,
                                             gsize            *length,
                                             gsize            *dropped,
                                             GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChronoMcpReader, chrono_mcp_reader_free)

/* Writes MESSAGE as one line of compact JSON to FD. */
gboolean  chrono_mcp_write_message   (int          fd,
                                      JsonNode    *message,
                                      GError     **error);

/* {"jsonrpc":"2.0","id":ID,"result":RESULT}; takes RESULT. ID may be NULL
 * for null. */
JsonNode *chrono_mcp_message_result  (JsonNode    *id,
                                      JsonNode    *result);
/* {"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}. */
JsonNode *chrono_mcp_message_error   (JsonNode    *id,
                                      int          code,
                                      const char  *message);

G_END_DECLS
