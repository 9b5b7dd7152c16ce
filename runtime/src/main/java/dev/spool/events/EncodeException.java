package dev.spool.events;

/** An event that cannot be encoded for a reason other than a non-string map key. */
final class EncodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    EncodeException(String message) {
        super(message);
    }

    EncodeException(String message, Throwable cause) {
        super(message, cause);
    }
}
