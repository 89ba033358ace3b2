"""Pairing two rule trees and classifying every change; imports records, words and support."""
