package dev.spool.sample;

/** Bad command-line arguments: the message says what is wrong; the app exits with code 2. */
public final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
