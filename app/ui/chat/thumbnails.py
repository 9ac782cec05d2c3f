"""Screenshots: data URL ⇄ QImage, small thumbnails (QImage is safe in worker threads), and a viewer."""

from __future__ import annotations

import base64

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QDialog, QLabel, QScrollArea, QVBoxLayout, QWidget

THUMB_WIDTH = 480


def image_from_data_url(data_url: str) -> QImage:
    _, _, payload = data_url.partition(",")
    image = QImage()
    image.loadFromData(QByteArray(base64.b64decode(payload or "")))
    return image


def thumbnail_data_url(data_url: str, width: int = THUMB_WIDTH) -> str | None:
    """A JPEG at most `width` px wide, or None when the data is not an image. Blocking: run in a thread."""
    image = image_from_data_url(data_url)
    if image.isNull():
        return None
    if image.width() > width:
        image = image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPEG", quality=75)  # type: ignore[call-overload]  # the stub says bytes; the binding takes str
    return "data:image/jpeg;base64," + base64.b64encode(buffer.data().data()).decode("ascii")


def pixmap(data_url: str, width: int) -> QPixmap:
    image = image_from_data_url(data_url)
    if image.isNull():
        return QPixmap()
    return QPixmap.fromImage(image.scaledToWidth(width, Qt.TransformationMode.SmoothTransformation))


class ImageViewer(QDialog):
    def __init__(self, data_url: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        view = QLabel()
        view.setPixmap(QPixmap.fromImage(image_from_data_url(data_url)))
        area = QScrollArea()
        area.setWidget(view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(area)
        self.resize(min(view.sizeHint().width() + 24, 1100), min(view.sizeHint().height() + 24, 760))
