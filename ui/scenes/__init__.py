"""What each screen draws, as plain data: laid-out boxes and texts for the Arcade views."""
