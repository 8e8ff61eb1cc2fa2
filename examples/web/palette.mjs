// The 21 classes of PASCAL VOC (what DeepLab-style segmentation models output) and a colour for
// each, as [r, g, b]. Class 0 is the background.
export const CLASS_NAMES = [
  'background', 'aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair', 'cow',
  'dining table', 'dog', 'horse', 'motorbike', 'person', 'potted plant', 'sheep', 'sofa', 'train', 'tv/monitor',
];

export const CLASS_COLOURS = [
  [30, 41, 59], [230, 25, 75], [60, 180, 75], [255, 225, 25], [67, 99, 216], [245, 130, 49],
  [145, 30, 180], [66, 212, 244], [240, 50, 230], [191, 239, 69], [250, 190, 212], [70, 153, 144],
  [220, 190, 255], [154, 99, 36], [255, 250, 200], [128, 0, 0], [170, 255, 195], [128, 128, 0],
  [255, 216, 177], [235, 235, 235], [169, 169, 169],
];

export const cssColour = ([r, g, b]) => `rgb(${r} ${g} ${b})`;
