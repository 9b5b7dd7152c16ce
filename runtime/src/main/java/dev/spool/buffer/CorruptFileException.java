package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A JSON file that cannot be parsed. Names the file, the line and the column. The file was not
 * touched, and nothing is buffered for it, so no flush writes over it; once its contents are
 * replaced it loads normally.
 */
public final class CorruptFileException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    /** The line of the first problem. */
    private final int line;
    /** The column of the first problem. */
    private final int column;

    CorruptFileException(Path file, int line, int column, String problem, IOException cause) {
        super("corrupt JSON in " + file + " at line " + line + ", column " + column + ": " + problem, cause);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** @return the file that does not parse */
    public Path file() { return file; }

    /** @return the line of the first problem (1-based) */
    public int line() { return line; }

    /** @return the column of the first problem (1-based) */
    public int column() { return column; }
}
