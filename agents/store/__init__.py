"""What runs leave on disk: the results database, bench records, and safe file reading and writing."""
