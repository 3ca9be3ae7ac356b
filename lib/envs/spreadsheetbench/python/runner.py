"""Runs one model-written SpreadsheetBench script.

Usage: runner.py CODE_FILE INPUT_PATH OUTPUT_PATH MEMORY_MB

The parent (sandbox.ts) has already put this process in the bubblewrap sandbox (bwrap.ts: no network
namespace, its own PID namespace, a read-only system, only the task folder writable), with a scrubbed
environment and a wall-clock limit that kills the whole sandbox. Here we add what a process can do to
itself before the untrusted code runs:
  * an address-space limit (RLIMIT_AS) and an output-file size limit (RLIMIT_FSIZE);
  * an in-interpreter network block (the socket constructors and resolvers raise), which gives a clear
    message to ordinary attempts. It is not the boundary: a script can undo it, and then meets the
    sandbox's empty network namespace (or, in a run with env.allow_unsandboxed, the real network).
The script sees INPUT_PATH and OUTPUT_PATH as globals and runs as __main__. Any exception prints the
traceback and exits with status 2; a clean run (or sys.exit(0)) exits with 0.
"""
import sys
import traceback

NETWORK_BLOCKED = "network access is disabled in the SpreadsheetBench sandbox"


def _limit_resources(memory_mb):
    try:
        import resource
    except ImportError:  # not on POSIX: only the parent's time limit applies
        return
    if memory_mb > 0:
        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    size = 512 * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _refuse(*_args, **_kwargs):
    raise PermissionError(NETWORK_BLOCKED)


class _NoSocket:
    def __new__(cls, *_args, **_kwargs):
        raise PermissionError(NETWORK_BLOCKED)


def _block_network():
    import socket
    import _socket

    for module in (socket, _socket):
        for name in ("socket", "SocketType"):
            if hasattr(module, name):
                setattr(module, name, _NoSocket)
        for name in ("create_connection", "create_server", "getaddrinfo", "gethostbyname",
                     "gethostbyname_ex", "gethostbyaddr", "socketpair", "fromfd"):
            if hasattr(module, name):
                setattr(module, name, _refuse)


def main():
    code_file, input_path, output_path, memory_mb = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(code_file, encoding="utf-8") as handle:
        source = handle.read()
    _block_network()
    _limit_resources(memory_mb)
    namespace = {
        "__name__": "__main__",
        "__file__": code_file,
        "__builtins__": __builtins__,
        "INPUT_PATH": input_path,
        "OUTPUT_PATH": output_path,
    }
    sys.argv = [code_file]
    try:
        exec(compile(source, "solution.py", "exec"), namespace)
    except SystemExit as stop:
        if stop.code in (None, 0):
            sys.exit(0)
        print(f"SystemExit: {stop.code}", file=sys.stderr)
        sys.exit(2)
    except MemoryError:
        print("MemoryError: the script exceeded the sandbox memory limit", file=sys.stderr)
        sys.exit(2)
    except BaseException as exc:  # noqa: BLE001 - everything the script raises is reported to the model
        # Skip this runner's own frame: the model should see only its script in the traceback.
        traceback.print_exception(type(exc), exc, exc.__traceback__.tb_next)
        sys.exit(2)


if __name__ == "__main__":
    main()
